/// Everything that can go wrong in the Audio module, each with a one-line message a user can act on.
/// Callers that get `cannotOpen` from `AudioOutput.init` simply run without sound.
public enum AudioError: Error, CustomStringConvertible, Equatable {
    /// snd_pcm_open or the device configuration failed; `reason` is libasound's own last line
    /// (e.g. "Unknown PCM default") when it gave one, otherwise snd_strerror's text.
    case cannotOpen(device: String, reason: String)
    /// An ALSA call failed after the device was open.
    case alsa(function: String, code: Int32, reason: String)
    /// libsamplerate refused (bad ratio, unknown converter).
    case resampler(function: String, reason: String)
    /// A rate that is not a positive, finite number of Hz.
    case invalidRate(Double)
    /// The WAV file could not be written; `reason` names the failing step.
    case cannotWriteWAV(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(device, reason):
            return "audio: cannot open ALSA device '\(device)': \(reason)"
        case let .alsa(function, code, reason):
            return "audio: \(function) failed (\(code)): \(reason)"
        case let .resampler(function, reason):
            return "audio: \(function) failed: \(reason)"
        case let .invalidRate(rate):
            return "audio: invalid sample rate \(rate) Hz"
        case let .cannotWriteWAV(path, reason):
            return "audio: cannot write WAV '\(path)': \(reason)"
        }
    }
}
