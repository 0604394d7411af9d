import Foundation
import Glibc
import PhosphorKit
import Synchronization

/// What fast-forward does to the sound.
public enum FastForwardAudio: String, Sendable, CaseIterable {
    /// Silence while fast-forwarding (the default: sped-up chiptunes are a headache).
    case muted
    /// The core's sound played faster and higher, as much of it as the ring holds.
    case spedUp
}

/// Plays the core's sound through ALSA on its own thread.
///
/// Data path: the core thread writes interleaved stereo Int16 at the core's rate into a `SampleRing`;
/// the audio thread (the ring's only reader) resamples to 48 kHz with libsamplerate and writes to the
/// PCM, keeping the device buffer about half full with dynamic rate control (`RateController`).
///
/// Contract with the core thread at 1x: after each frame, wait while `ring.count > ringHighWater`,
/// otherwise pace by the monotonic clock at the core's fps. Audio is then the master clock. When
/// fast-forwarding the core thread never waits (a full ring drops samples); on return to 1x the audio
/// thread flushes the ring so no latency builds up.
///
/// All methods and properties may be called from any thread.
public final class AudioOutput: Sendable {
    /// The rate the device is opened at.
    public static let deviceRate = 48_000

    public let deviceName: String
    /// Device buffer and period actually granted by ALSA, in frames.
    public let bufferFrames: Int
    public let periodFrames: Int

    private let controls: AudioControls
    private let pending: Mutex<PCMDevice?>
    private let quality: ResamplerQuality
    private let thread = Mutex<AudioThreadHandle?>(nil)

    /// Opens `device` ("default", "hw:1", "null", "file:FILE=/tmp/x.raw,FORMAT=raw", …) for
    /// S16LE stereo at 48 kHz with about `latency` of buffer. libasound's own messages go to `Log`.
    /// - Throws: `AudioError.cannotOpen`, e.g. "audio: cannot open ALSA device 'default': Unknown PCM default".
    public init(device: String = "default", latency: Duration = .milliseconds(64),
                quality: ResamplerQuality = .sincFastest, fastForward: FastForwardAudio = .muted) throws {
        let pcm = try PCMDevice(device: device, rate: AudioOutput.deviceRate, latency: latency)
        deviceName = device
        bufferFrames = pcm.bufferFrames
        periodFrames = pcm.periodFrames
        pending = Mutex(pcm)
        self.quality = quality
        controls = AudioControls(fastForward: fastForward)
        Log.info("audio: opened '\(device)' at \(AudioOutput.deviceRate) Hz, buffer \(bufferFrames) frames, period \(periodFrames)")
    }

    deinit {
        stop()
    }

    /// Starts the audio thread reading `ring`, whose samples are at `sourceRate` Hz. Once only.
    /// - Throws: `AudioError.invalidRate` for a rate libsamplerate cannot convert to 48 kHz.
    public func start(ring: SampleRing, sourceRate: Double) throws {
        let resampler = try Resampler(sourceRate: sourceRate, targetRate: Double(AudioOutput.deviceRate),
                                      quality: quality)
        guard let device = pending.withLock({ pcm -> PCMDevice? in defer { pcm = nil }; return pcm }) else {
            Log.warning("audio: start called twice or after stop; ignored")
            return
        }
        controls.sourceRate.store(sourceRate.bitPattern, ordering: .relaxed)
        let loop = AudioThreadLoop(device: device, ring: ring, resampler: resampler, sourceRate: sourceRate,
                                   controls: controls)
        let finished = DispatchSemaphore(value: 0)
        let worker = Thread {
            loop.run()
            finished.signal()
        }
        worker.name = "phosphor-audio"
        worker.qualityOfService = .userInteractive
        thread.withLock { $0 = AudioThreadHandle(finished: finished) }
        worker.start()
    }

    /// The core's sample rate changed (RETRO_ENVIRONMENT_SET_SYSTEM_AV_INFO). Core thread.
    public func setSourceRate(_ rate: Double) throws {
        _ = try Resampler.validatedRatio(source: rate, target: Double(AudioOutput.deviceRate))
        controls.sourceRate.store(rate.bitPattern, ordering: .relaxed)
    }

    /// The core's current sample rate.
    public var sourceRate: Double { Double(bitPattern: controls.sourceRate.load(ordering: .relaxed)) }

    /// 1 = normal; above 1 = fast-forward (muted or sped up, see `fastForwardAudio`; sped-up sound
    /// tops out at 8x). Values below 1 are taken as 1. Returning to 1 flushes the ring and the
    /// resampler. Any thread; the audio thread picks it up within one tick (≤ 10 ms).
    public func setSpeed(_ speed: Double) {
        let clamped = speed.isFinite ? max(1, speed) : 1
        controls.speed.store(clamped.bitPattern, ordering: .relaxed)
    }

    public var speed: Double { Double(bitPattern: controls.speed.load(ordering: .relaxed)) }

    public var fastForwardAudio: FastForwardAudio {
        get { controls.spedUp.load(ordering: .relaxed) ? .spedUp : .muted }
        set { controls.spedUp.store(newValue == .spedUp, ordering: .relaxed) }
    }

    /// Linear gain 0…1 (values outside are clamped).
    public var volume: Double {
        get { Double(bitPattern: controls.volume.load(ordering: .relaxed)) }
        set { setVolume(newValue) }
    }

    public func setVolume(_ volume: Double) {
        let clamped = volume.isFinite ? min(1, max(0, volume)) : 1
        controls.volume.store(clamped.bitPattern, ordering: .relaxed)
    }

    public var isMuted: Bool {
        get { controls.muted.load(ordering: .relaxed) }
        set { setMuted(newValue) }
    }

    public func setMuted(_ muted: Bool) {
        controls.muted.store(muted, ordering: .relaxed)
    }

    /// Times the device ran dry while the core was producing: a dry spell counts once, and only when
    /// samples arrive again within 250 ms (a longer silence is the core pausing).
    public var underruns: Int { controls.underruns.load(ordering: .relaxed) }

    /// CPU time the audio thread has used so far.
    public var threadCPUTime: Duration { .nanoseconds(controls.cpuNanoseconds.load(ordering: .relaxed)) }

    /// Samples (not frames) above which the core thread waits at 1x: 48 ms of sound at the current
    /// source rate, about three frames of a 60 fps core. Make the ring at least twice this big.
    /// It follows the source rate, so read it after `start` and `setSourceRate` (or every frame:
    /// it is one atomic load); before `start` it assumes 32768 Hz.
    public var ringHighWater: Int { AudioOutput.ringHighWater(sourceRate: sourceRate) }

    public static func ringHighWater(sourceRate: Double) -> Int {
        Int(sourceRate * 0.048) * 2
    }

    /// Stops the audio thread, waits for it, plays out what the device holds and closes it.
    /// Safe to call more than once.
    public func stop() {
        // Never started: just close the device.
        pending.withLock { pcm in
            pcm?.close()
            pcm = nil
        }
        guard let handle = thread.withLock({ handle -> AudioThreadHandle? in defer { handle = nil }; return handle })
        else { return }
        controls.stopRequested.store(true, ordering: .relaxed)
        handle.finished.wait()
    }
}

private struct AudioThreadHandle: Sendable {
    let finished: DispatchSemaphore
}

/// The state both sides share: written by any thread, read by the audio thread each tick.
/// Doubles are stored as bit patterns.
final class AudioControls: Sendable {
    let sourceRate = Atomic<UInt64>(32_768.0.bitPattern)
    let speed = Atomic<UInt64>(1.0.bitPattern)
    let volume = Atomic<UInt64>(1.0.bitPattern)
    let muted = Atomic<Bool>(false)
    let spedUp: Atomic<Bool>
    let underruns = Atomic<Int>(0)
    let cpuNanoseconds = Atomic<Int>(0)
    let stopRequested = Atomic<Bool>(false)

    init(fastForward: FastForwardAudio) {
        spedUp = Atomic(fastForward == .spedUp)
    }
}
