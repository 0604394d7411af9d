import Audio
import Foundation

/// Records what a core plays, resampled to 48 kHz, into a WAV file (`--audio-wav`).
/// Core thread only, apart from `finish`, which the caller runs after the core thread ended.
final class AudioRecording: @unchecked Sendable {
    private let writer: WAVWriter
    private var resampler: Resampler?
    private var sourceRate: Double = 0
    private(set) var failure: Error?

    init(file: URL) throws { writer = try WAVWriter(url: file) }

    /// Core thread: the core's rate, before its samples arrive (and after an AV-info change).
    func setSourceRate(_ rate: Double) {
        guard rate != sourceRate, failure == nil else { return }
        sourceRate = rate
        do {
            if let resampler {
                try writer.append(try resampler.flush())
                try resampler.setRates(source: rate, target: Double(AudioOutput.deviceRate))
            } else {
                resampler = try Resampler(sourceRate: rate, targetRate: Double(AudioOutput.deviceRate),
                                          quality: .sincMedium)
            }
        } catch {
            failure = error
        }
    }

    /// Core thread: one batch of interleaved stereo samples.
    func append(_ samples: UnsafeBufferPointer<Int16>) {
        guard let resampler, failure == nil else { return }
        do { try writer.append(try resampler.process(Array(samples))) } catch { failure = error }
    }

    /// After the core thread ended: flushes and puts the file in place.
    func finish() throws {
        if let failure { throw failure }
        if let resampler { try writer.append(try resampler.flush()) }
        try writer.finish()
    }
}
