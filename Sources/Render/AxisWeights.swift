/// Area-averaging weights along one axis: for each output pixel, the source pixels it covers
/// and how much of each (fixed point, summing to exactly `AxisWeights.one`).
///
/// Output pixel `i` covers the source interval `[i·S/D, (i+1)·S/D)`; a source pixel's weight is
/// the length of its overlap with that interval divided by `S/D`. This is a box filter over the
/// exact footprint, so a 2×2 checker downsampled 2:1 becomes its average, and nothing shimmers
/// as a picture scrolls (unlike nearest-neighbour, which picks one pixel and drops the rest).
struct AxisWeights {
    static let shift = 16
    static let one = 1 << shift

    let sourceLength: Int
    let outputLength: Int
    /// For output `i`, its taps are `tapStart[i] ..< tapStart[i + 1]`.
    private(set) var tapStart: [Int32]
    private(set) var tapSource: [Int32]
    private(set) var tapWeight: [Int32]

    /// Source and output have the same length: every output is exactly one source pixel.
    var isIdentity: Bool { sourceLength == outputLength }

    /// Runs `body` with the three tap tables as pointers (valid only inside `body`).
    func withTaps<R>(_ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> R) -> R {
        tapStart.withUnsafeBufferPointer { starts in
            tapSource.withUnsafeBufferPointer { sources in
                tapWeight.withUnsafeBufferPointer { weights in
                    body(starts.baseAddress!, sources.baseAddress!, weights.baseAddress!)
                }
            }
        }
    }

    init(sourceLength: Int, outputLength: Int) {
        self.sourceLength = sourceLength
        self.outputLength = outputLength
        tapStart = [0]
        tapSource = []
        tapWeight = []
        tapStart.reserveCapacity(outputLength + 1)
        let s = sourceLength, d = outputLength
        for i in 0..<d {
            // Interval in units of 1/d source pixels.
            let begin = i * s, end = (i + 1) * s
            let first = begin / d, last = (end - 1) / d
            var total = 0
            var largest = tapSource.count, largestWeight = -1
            for j in first...last {
                let overlap = min(end, (j + 1) * d) - max(begin, j * d)
                guard overlap > 0 else { continue }
                let weight = overlap * AxisWeights.one / s
                tapSource.append(Int32(j))
                tapWeight.append(Int32(weight))
                if weight > largestWeight { largest = tapSource.count - 1; largestWeight = weight }
                total += weight
            }
            // Rounding leftovers go to the heaviest tap so every output's weights sum to `one`.
            tapWeight[largest] += Int32(AxisWeights.one - total)
            tapStart.append(Int32(tapSource.count))
        }
    }
}
