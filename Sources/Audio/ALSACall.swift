internal import CAlsa
import PhosphorKit

/// Routes libasound's diagnostics into `Log` instead of stderr.
/// `install()` must run before the first other ALSA call; it is idempotent. Any thread.
enum ALSADiagnostics {
    private static let installed: Bool = {
        calsa_install_error_handler { _, _, function, _, message in
            let text = message.map { String(cString: $0) } ?? ""
            let origin = function.map { String(cString: $0) } ?? ""
            Log.debug("alsa: \(origin): \(text)")
        } == 0
    }()

    static func install() {
        _ = installed
    }

    /// The last line libasound reported on this thread since `clearLastMessage()`, if any.
    static var lastMessage: String? {
        let text = String(cString: calsa_last_error())
        return text.isEmpty ? nil : text
    }

    static func clearLastMessage() {
        calsa_clear_last_error()
    }
}

/// Runs an ALSA call that returns a negative error code on failure and throws `AudioError.alsa`
/// naming the function, with libasound's own last line when it printed one.
@discardableResult
func alsaCall<Result: BinaryInteger>(_ function: String, _ body: () -> Result) throws -> Result {
    ALSADiagnostics.clearLastMessage()
    let result = body()
    if result >= 0 { return result }
    let code = Int32(truncatingIfNeeded: result)
    throw AudioError.alsa(function: function, code: code, reason: alsaReason(code))
}

/// libasound's last line on this thread, or snd_strerror's text for `code`.
func alsaReason(_ code: Int32) -> String {
    ALSADiagnostics.lastMessage ?? String(cString: snd_strerror(code))
}
