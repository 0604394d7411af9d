internal import CAlsa
import Glibc

/// One open ALSA playback PCM: S16LE, interleaved stereo, fixed rate.
/// Owned by one thread at a time: whoever opened it until `AudioOutput.start`, then the audio thread
/// (hence `@unchecked Sendable`: the hand-over is the only crossing).
final class PCMDevice: @unchecked Sendable {
    let name: String
    let rate: Int
    /// The whole device buffer, in frames (one frame = left + right sample).
    let bufferFrames: Int
    /// The period (the device's wake-up granularity), in frames.
    let periodFrames: Int
    private var handle: OpaquePointer?

    /// Opens and configures `device`. Throws `AudioError.cannotOpen` with libasound's reason.
    init(device: String, rate: Int, latency: Duration) throws {
        ALSADiagnostics.install()
        name = device
        self.rate = rate
        var pcm: OpaquePointer?
        ALSADiagnostics.clearLastMessage()
        let opened = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard opened >= 0, let pcm else {
            throw AudioError.cannotOpen(device: device, reason: alsaReason(opened))
        }
        handle = pcm
        do {
            let microseconds = UInt32(clamping: latency.components.seconds * 1_000_000
                + latency.components.attoseconds / 1_000_000_000_000)
            // soft_resample = 0: resampling is ours (libsamplerate); the device must take 48 kHz or fail.
            try alsaCall("snd_pcm_set_params") {
                snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                   2, UInt32(rate), 0, microseconds)
            }
            var buffer: snd_pcm_uframes_t = 0
            var period: snd_pcm_uframes_t = 0
            try alsaCall("snd_pcm_get_params") { snd_pcm_get_params(pcm, &buffer, &period) }
            bufferFrames = Int(buffer)
            periodFrames = Int(period)
            // snd_pcm_set_params starts the device only when the buffer is full; we keep it half
            // full, so start as soon as half of it is queued.
            try setStartThreshold(pcm, frames: bufferFrames / 2)
        } catch let error as AudioError {
            snd_pcm_close(pcm)
            handle = nil
            if case let .alsa(function, _, reason) = error {
                throw AudioError.cannotOpen(device: device, reason: "\(function): \(reason)")
            }
            throw error
        }
    }

    deinit { close() }

    private func setStartThreshold(_ pcm: OpaquePointer, frames: Int) throws {
        var parameters: OpaquePointer?
        try alsaCall("snd_pcm_sw_params_malloc") { snd_pcm_sw_params_malloc(&parameters) }
        defer { snd_pcm_sw_params_free(parameters) }
        try alsaCall("snd_pcm_sw_params_current") { snd_pcm_sw_params_current(pcm, parameters) }
        try alsaCall("snd_pcm_sw_params_set_start_threshold") {
            snd_pcm_sw_params_set_start_threshold(pcm, parameters, snd_pcm_uframes_t(max(1, frames)))
        }
        try alsaCall("snd_pcm_sw_params") { snd_pcm_sw_params(pcm, parameters) }
    }

    /// What a write or a query found.
    enum Status: Equatable {
        case ok(Int)
        /// The device ran dry (or was suspended) and was recovered with snd_pcm_recover.
        case recoveredUnderrun
    }

    /// Frames queued in the device that have not been played yet (snd_pcm_delay).
    /// Recovers an underrun it finds. Audio thread only.
    func delay() throws -> Status {
        guard let handle else { return .ok(0) }
        var frames: snd_pcm_sframes_t = 0
        let result = snd_pcm_delay(handle, &frames)
        if result == -EPIPE || result == -ESTRPIPE {
            try recover(result)
            return .recoveredUnderrun
        }
        if result < 0 {
            throw AudioError.alsa(function: "snd_pcm_delay", code: result, reason: alsaReason(result))
        }
        return .ok(max(0, Int(frames)))
    }

    /// Writes interleaved stereo frames (snd_pcm_writei). A short write returns the count written;
    /// an underrun is recovered and reported, and the caller writes again. Audio thread only.
    func write(_ samples: UnsafeBufferPointer<Int16>) throws -> Status {
        guard let handle, let base = samples.baseAddress, samples.count >= 2 else { return .ok(0) }
        let written = snd_pcm_writei(handle, base, snd_pcm_uframes_t(samples.count / 2))
        if written >= 0 { return .ok(Int(written)) }
        let code = Int32(truncatingIfNeeded: written)
        if code == -EAGAIN { return .ok(0) }
        if code == -EPIPE || code == -ESTRPIPE || code == -EINTR {
            try recover(code)
            return code == -EINTR ? .ok(0) : .recoveredUnderrun
        }
        throw AudioError.alsa(function: "snd_pcm_writei", code: code, reason: alsaReason(code))
    }

    private func recover(_ code: Int32) throws {
        guard let handle else { return }
        try alsaCall("snd_pcm_recover") { snd_pcm_recover(handle, code, 1) }
    }

    /// Plays out what is queued (snd_pcm_drain), then closes. Safe to call twice.
    func drainAndClose() {
        if let handle {
            let result = snd_pcm_drain(handle)
            if result < 0 { Log.debugALSA("snd_pcm_drain", result) }
        }
        close()
    }

    /// Closes without playing what is queued. Safe to call twice.
    func close() {
        guard let handle else { return }
        snd_pcm_close(handle)
        self.handle = nil
    }
}

import PhosphorKit

extension Log {
    /// A failed ALSA call that is not worth throwing for (closing, draining).
    static func debugALSA(_ function: String, _ code: Int32) {
        Log.debug("audio: \(function) failed (\(code)): \(alsaReason(code))")
    }
}
