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
    var isOverLimit: Bool { seen.isOverLimit }
    private var seen = DistinctValues(limit: FramePalette.limit)
    /// Direct-mapped answers of `nearest`, reset per frame: blends repeat a lot.
    private var snapKeys = [UInt32](repeating: FramePalette.empty, count: 4096)
    private var snapValues = [UInt32](repeating: 0, count: 4096)
    private var snapKeysUsed = false
    private static let empty: UInt32 = 0xFFFF_FFFF

    mutating func reset() {
        colors.removeAll(keepingCapacity: true)
        seen.reset()
        if snapKeysUsed {
            snapKeys.withUnsafeMutableBufferPointer { $0.update(repeating: FramePalette.empty) }
            snapKeysUsed = false
        }
    }

    /// Notes one source pixel (0x00RRGGBB).
    @inline(__always)
    mutating func insert(_ pixel: UInt32) {
        if seen.insert(pixel) { colors.append(RGBColor(rawValue: pixel)) }
    }

    /// The frame colour nearest to `color` (squared RGB distance, green weighted as the eye does).
    @inline(__always)
    mutating func nearest(_ color: RGBColor) -> RGBColor {
        let key = color.rawValue
        let slot = Int((key &* 0x9E37_79B1) >> 20)
        if snapKeys[slot] == key { return RGBColor(rawValue: snapValues[slot]) }
        snapKeysUsed = true
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
