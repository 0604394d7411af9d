import Foundation

/// Records what a core produces, resampled to 48 kHz, into a WAV file: the `--audio-wav FILE` path of
/// a headless run. A `Resampler` feeding a `WAVWriter`, plus the one subtlety: when the core changes
/// its rate mid-game (SET_SYSTEM_AV_INFO) the resampler's tail at the old rate is flushed first.
/// Core thread only (it is called where the core's samples are produced).
public final class WAVRecorder {
    public let writer: WAVWriter
    private var resampler: Resampler
    private let quality: ResamplerQuality

    /// Creates the (temporary) file. Throws `AudioError.cannotWriteWAV` or `.invalidRate`.
    public init(url: URL, sourceRate: Double, quality: ResamplerQuality = .sincFastest) throws {
        self.quality = quality
        resampler = try Resampler(sourceRate: sourceRate, targetRate: Double(AudioOutput.deviceRate), quality: quality)
        writer = try WAVWriter(url: url, sampleRate: AudioOutput.deviceRate)
    }

    /// Appends one batch of interleaved stereo samples at the current source rate.
    public func append(_ samples: [Int16]) throws {
        try writer.append(try resampler.process(samples))
    }

    /// The core's rate changed: what is still in the filter belongs to the old rate.
    public func setSourceRate(_ rate: Double) throws {
        let next = try Resampler(sourceRate: rate, targetRate: Double(AudioOutput.deviceRate), quality: quality)
        try writer.append(try resampler.flush())
        resampler = next
    }

    /// Flushes the resampler and moves the finished WAV into place.
    public func finish() throws {
        try writer.append(try resampler.flush())
        try writer.finish()
    }
}
