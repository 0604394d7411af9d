/// The distinct 32-bit values seen since `reset`, while there are at most `limit` of them:
/// counts a frame's colours (as decoded colours or as masked raw pixel values, see
/// `PixelDecoder`). Open addressing in a table kept between frames; 16-bit pixel values go to
/// a bit per value instead (`noteSixteenBitPixels`: one test per pixel, no hashing).
///
/// Not thread-safe: one per `Downsampler` (through `FramePalette`).
struct DistinctValues {
    let limit: Int
    private(set) var count = 0
    private(set) var isOverLimit = false
    /// `empty` marks a free slot; no pixel value or colour (at most 24 bits) equals it.
    private var slots = [UInt32](repeating: DistinctValues.empty, count: 1024)
    private static let empty: UInt32 = 0xFFFF_FFFF
    /// One bit per 16-bit value seen, and the values whose bits are set (to clear just those).
    private var sixteenBitSeen = [UInt64](repeating: 0, count: 65536 / 64)
    private var sixteenBitValues: [UInt16] = []

    init(limit: Int) {
        precondition(limit < 512, "the table must stay at most half full")
        self.limit = limit
        sixteenBitValues.reserveCapacity(limit)
    }

    mutating func reset() {
        if count > sixteenBitValues.count || isOverLimit {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: DistinctValues.empty) }
        }
        for value in sixteenBitValues { sixteenBitSeen[Int(value >> 6)] = 0 }
        sixteenBitValues.removeAll(keepingCapacity: true)
        count = 0
        isOverLimit = false
    }

    /// Notes `count` consecutive little-endian 16-bit pixels at `row`, each under `mask`. Do not
    /// mix with `insert` between two resets (the two keep separate tables). Eight bytes equal to
    /// the eight or sixteen before hold no new value and are skipped with a compare.
    mutating func noteSixteenBitPixels(_ row: UnsafeRawPointer, count pixels: Int, mask: UInt16) {
        if isOverLimit { return }
        let limit = self.limit
        let known = count
        // No nested function or captured counter: either would cost a dynamic exclusivity check
        // per call (callgrind: 1 100 a frame).
        let (found, over) = sixteenBitSeen.withUnsafeMutableBufferPointer { buffer -> (Int, Bool) in
            let seen = buffer.baseAddress!
            var found = known
            let laneMask = UInt64(mask)
            let wordMask = laneMask &* 0x0001_0001_0001_0001
            // The last two words (no masked word equals `UInt64.max`): a tiled row repeats every
            // eight pixels, a run every four (on the game-like cartridge 73 % of words are one of them).
            var previous = UInt64.max, beforePrevious = UInt64.max
            let words = (pixels &+ 3) / 4
            var index = 0
            while index < words {
                let firstPixel = index &* 4
                var value: UInt64
                if firstPixel &+ 4 <= pixels {
                    value = UInt64(littleEndian: row.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)) & wordMask
                } else {
                    // The last 1–3 pixels, the word's other lanes filled with the first of them (no new value).
                    value = 0
                    for lane in 0..<4 {
                        let x = firstPixel &+ lane < pixels ? firstPixel &+ lane : firstPixel
                        let pixel = UInt64(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: x &* 2, as: UInt16.self))) & laneMask
                        value |= pixel << UInt64(16 * lane)
                    }
                }
                index &+= 1
                let skip = value == previous || value == beforePrevious
                beforePrevious = previous
                previous = value
                if skip { continue }
                var lanes = 4
                while lanes > 0 {
                    let pixel = value & 0xFFFF
                    let word = Int(truncatingIfNeeded: pixel >> 6), bit = UInt64(1) << (pixel & 63)
                    if seen[word] & bit == 0 {
                        if found == limit { return (found, true) }
                        seen[word] |= bit
                        sixteenBitValues.append(UInt16(truncatingIfNeeded: pixel))
                        found &+= 1
                    }
                    value >>= 16
                    lanes &-= 1
                }
            }
            return (found, false)
        }
        count = found
        isOverLimit = over
    }

    /// Notes the 24-bit colours of `count` consecutive little-endian XRGB pixels at `row` (the X
    /// byte ignored). `previous` is the last colour noted (carried across rows). Do not mix with
    /// `noteSixteenBitPixels` between two resets. The run of the last colour is skipped two
    /// pixels to a compare, in a loop of its own; pixel art alternates two colours as often as it
    /// runs one, so the colour before the last needs no look-up either; and the table is walked
    /// through a raw pointer with the count in a local (through `insert`, each colour change
    /// reloaded the array and checked its bounds). Counting was over half of the downsampler's
    /// instructions on a downscaled scrolling game (callgrind).
    mutating func noteThirtyTwoBitPixels(_ row: UnsafeRawPointer, count pixels: Int, previous: inout UInt32) {
        if isOverLimit { return }
        let limit = self.limit
        let known = count
        var last = previous
        let (found, over) = slots.withUnsafeMutableBufferPointer { buffer -> (Int, Bool) in
            let table = buffer.baseAddress!
            @inline(__always) func pixel(_ x: Int) -> UInt32 {
                UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)) & 0xFF_FFFF
            }
            var found = known
            var other = last
            var x = 0
            while x < pixels {
                let pair = UInt64(last) | UInt64(last) &<< 32
                while x &+ 2 <= pixels
                        && UInt64(littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt64.self)) & 0x00FF_FFFF_00FF_FFFF == pair {
                    x &+= 2
                }
                if x < pixels && pixel(x) == last { x &+= 1 }
                guard x < pixels else { break }
                let next = pixel(x)
                if next != other && DistinctValues.note(next, in: table, count: &found, limit: limit) == .overLimit {
                    return (found, true)
                }
                other = last
                last = next
                x &+= 1
            }
            return (found, false)
        }
        previous = last
        count = found
        isOverLimit = over
    }

    /// Notes `value`; true when it had not been seen (and fitted under the limit).
    @inline(__always) @discardableResult
    mutating func insert(_ value: UInt32) -> Bool {
        if isOverLimit { return false }
        var found = count
        let outcome = slots.withUnsafeMutableBufferPointer { DistinctValues.note(value, in: $0.baseAddress!, count: &found, limit: limit) }
        count = found
        if outcome == .overLimit { isOverLimit = true }
        return outcome == .added
    }

    private enum Outcome { case seen, added, overLimit }

    /// The one look-up in the table (open addressing, `count` values in it): finds `value`, or
    /// adds it when fewer than `limit` are held.
    @inline(__always)
    private static func note(_ value: UInt32, in table: UnsafeMutablePointer<UInt32>, count: inout Int, limit: Int) -> Outcome {
        var slot = Int((value &* 0x9E37_79B1) >> 22)
        while true {
            let held = table[slot]
            if held == value { return .seen }
            if held == DistinctValues.empty {
                guard count < limit else { return .overLimit }
                table[slot] = value
                count &+= 1
                return .added
            }
            slot = (slot &+ 1) & 1023
        }
    }
}
