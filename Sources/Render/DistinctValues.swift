/// The distinct 32-bit values seen since `reset`, while there are at most `limit` of them:
/// counts a frame's colours (as decoded colours or as masked raw pixel values, see
/// `PixelDecoder`). Open addressing in a table kept between frames.
///
/// Not thread-safe: one per `Downsampler` (through `FramePalette`).
struct DistinctValues {
    let limit: Int
    private(set) var count = 0
    private(set) var isOverLimit = false
    /// `empty` marks a free slot; no pixel value or colour (at most 24 bits) equals it.
    private var slots = [UInt32](repeating: DistinctValues.empty, count: 1024)
    private static let empty: UInt32 = 0xFFFF_FFFF

    init(limit: Int) {
        precondition(limit < 512, "the table must stay at most half full")
        self.limit = limit
    }

    mutating func reset() {
        if count > 0 || isOverLimit {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: DistinctValues.empty) }
        }
        count = 0
        isOverLimit = false
    }

    /// Notes `value`; true when it had not been seen (and fitted under the limit).
    @inline(__always) @discardableResult
    mutating func insert(_ value: UInt32) -> Bool {
        if isOverLimit { return false }
        var slot = Int((value &* 0x9E37_79B1) >> 22)
        while true {
            let held = slots[slot]
            if held == value { return false }
            if held == DistinctValues.empty {
                guard count < limit else { isOverLimit = true; return false }
                slots[slot] = value
                count += 1
                return true
            }
            slot = (slot + 1) & 1023
        }
    }
}
