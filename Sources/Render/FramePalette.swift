/// The distinct colours of one frame while there are at most `limit` of them, and the nearest of
/// them to any colour: lets an area-averaged (non-whole) scale snap each blended pixel back to
/// one of the frame's own colours, so a frame of N colours is drawn with about N colours and its
/// edges stay hard (and cost fewer SGR bytes than 1 600 blends would).
///
/// Keeps its tables between frames. Not thread-safe: one per `Downsampler`.
struct FramePalette {
    /// More distinct colours than this (a photo, a 3D scene) and no snapping is done.
    static let limit = 64

    private(set) var colors: [RGBColor] = []
    private(set) var isOverLimit = false
    /// Open addressing over 0x00RRGGBB values; `empty` marks a free slot.
    private var slots = [UInt32](repeating: FramePalette.empty, count: 1024)
    /// Direct-mapped answers of `nearest`, reset per frame: blends repeat a lot.
    private var snapKeys = [UInt32](repeating: FramePalette.empty, count: 4096)
    private var snapValues = [UInt32](repeating: 0, count: 4096)
    private static let empty: UInt32 = 0xFFFF_FFFF

    mutating func reset() {
        colors.removeAll(keepingCapacity: true)
        isOverLimit = false
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: FramePalette.empty) }
        snapKeys.withUnsafeMutableBufferPointer { $0.update(repeating: FramePalette.empty) }
    }

    /// Notes one source pixel (0x00RRGGBB).
    @inline(__always)
    mutating func insert(_ pixel: UInt32) {
        if isOverLimit { return }
        var slot = Int((pixel &* 0x9E37_79B1) >> 22)
        while true {
            let value = slots[slot]
            if value == pixel { return }
            if value == FramePalette.empty {
                guard colors.count < FramePalette.limit else { isOverLimit = true; return }
                slots[slot] = pixel
                colors.append(RGBColor(rawValue: pixel))
                return
            }
            slot = (slot + 1) & 1023
        }
    }

    /// The frame colour nearest to `color` (squared RGB distance, green weighted as the eye does).
    @inline(__always)
    mutating func nearest(_ color: RGBColor) -> RGBColor {
        let key = color.rawValue
        let slot = Int((key &* 0x9E37_79B1) >> 20)
        if snapKeys[slot] == key { return RGBColor(rawValue: snapValues[slot]) }
        var best = color
        var bestDistance = Int.max
        let r = Int(color.red), g = Int(color.green), b = Int(color.blue)
        for candidate in colors {
            let dr = Int(candidate.red) - r, dg = Int(candidate.green) - g, db = Int(candidate.blue) - b
            let distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db
            if distance < bestDistance {
                bestDistance = distance
                best = candidate
            }
        }
        snapKeys[slot] = key
        snapValues[slot] = best.rawValue
        return best
    }
}
