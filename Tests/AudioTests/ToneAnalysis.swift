import Foundation

/// Measurements on recorded sound, for tests.
enum ToneAnalysis {
    /// Interleaved stereo Int16 sine of `frequency` Hz at `rate` Hz, both channels equal.
    static func sine(frequency: Double, rate: Double, frames: Int, amplitude: Double) -> [Int16] {
        var samples = [Int16]()
        samples.reserveCapacity(frames * 2)
        for index in 0..<frames {
            let value = Int16((amplitude * sin(2 * Double.pi * frequency * Double(index) / rate)).rounded())
            samples.append(value)
            samples.append(value)
        }
        return samples
    }

    /// The left channel of interleaved stereo.
    static func left(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count - 1, by: 2).map { Double(samples[$0]) }
    }

    /// Frequency from rising zero crossings (interpolated between samples), or nil with fewer than 3.
    static func frequency(of signal: [Double], rate: Double) -> Double? {
        var crossings: [Double] = []
        for index in 1..<signal.count where signal[index - 1] < 0 && signal[index] >= 0 {
            let fraction = -signal[index - 1] / (signal[index] - signal[index - 1])
            crossings.append(Double(index - 1) + fraction)
        }
        guard crossings.count >= 3, let first = crossings.first, let last = crossings.last else { return nil }
        return Double(crossings.count - 1) / ((last - first) / rate)
    }

    static func rms(of signal: [Double]) -> Double {
        guard !signal.isEmpty else { return 0 }
        return (signal.reduce(0) { $0 + $1 * $1 } / Double(signal.count)).squareRoot()
    }

    /// Reads raw S16LE interleaved samples (what ALSA's file PCM writes).
    static func readRaw(_ url: URL) throws -> [Int16] {
        let data = try Data(contentsOf: url)
        return stride(from: 0, to: data.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
        }
    }

    /// The stretch between the first and last non-zero sample, with `margin` frames cut from each end.
    static func activeRegion(_ signal: [Double], margin: Int) -> [Double] {
        guard let first = signal.firstIndex(where: { $0 != 0 }),
              let last = signal.lastIndex(where: { $0 != 0 }),
              last - first > 2 * margin else { return [] }
        return Array(signal[(first + margin)...(last - margin)])
    }
}

/// A fresh folder under /tmp for one test, removed at the end.
func makeScratchFolder(_ name: String = #function) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("phosphor-audio-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
