/// Estimates how many frames the device still has queued, and notices when it ran dry.
///
/// A real sound card reports its queue through snd_pcm_delay and plays in real time. The `null` and
/// `file` PCMs (and some network sinks) "play" a whole buffer instantly and report an empty queue
/// forever; trusting them would make the audio thread race through the ring. So the clock watches
/// how fast the device claims to consume: once it has consumed more than 5% faster than real time
/// plus a whole buffer within a window, the device is `freeRunning` and the estimate switches, for
/// good, to the monotonic clock: frames written minus elapsed time × rate.
///
/// A pure value: time is passed in (seconds from any origin), so tests can simulate hours. One thread.
struct PlaybackClock {
    enum Source: Equatable {
        /// snd_pcm_delay is believed.
        case device
        /// The device consumes faster than real time; the monotonic clock stands in for it.
        case monotonic
    }

    let rate: Double
    let bufferFrames: Int
    private(set) var source: Source = .device
    private(set) var framesWritten = 0

    /// Clock model: `anchorFrames` had been consumed at `anchorTime`; consumption continues at `rate`.
    private var anchorTime: Double?
    private var anchorFrames = 0.0
    /// Free-running detection: device consumption at the start of the current window.
    private var windowTime = 0.0
    private var windowConsumed = 0

    /// Length of a detection window. A real device 0.5% fast gains only 480 frames in it.
    static let detectionWindow = 2.0

    init(rate: Double, bufferFrames: Int) {
        self.rate = rate
        self.bufferFrames = bufferFrames
    }

    /// Records frames handed to the device at time `now`.
    mutating func didWrite(_ frames: Int, at now: Double) {
        if anchorTime == nil {
            anchorTime = now
            anchorFrames = Double(framesWritten)
            windowTime = now
            windowConsumed = framesWritten
        }
        framesWritten += frames
    }

    /// The device underran and was recovered: its report restarts, so restart the window too.
    mutating func deviceRecovered(at now: Double, reportedDelay: Int) {
        windowTime = now
        windowConsumed = framesWritten - reportedDelay
    }

    /// Frames queued at `now`, given what snd_pcm_delay reported. `ranDry` is true when the clock
    /// model found the (free-running) device empty: an underrun the device itself cannot report.
    mutating func fill(at now: Double, reportedDelay: Int) -> (fill: Int, ranDry: Bool) {
        guard let anchor = anchorTime else { return (reportedDelay, false) }

        var clockFill = Double(framesWritten) - (anchorFrames + (now - anchor) * rate)
        var ranDry = false
        if clockFill < 0 {
            ranDry = true
            anchorTime = now
            anchorFrames = Double(framesWritten)
            clockFill = 0
        }

        if source == .device {
            let consumed = framesWritten - reportedDelay
            let allowed = (now - windowTime) * rate * 1.05 + Double(bufferFrames)
            if Double(consumed - windowConsumed) > allowed {
                source = .monotonic
            } else if now - windowTime >= PlaybackClock.detectionWindow {
                windowTime = now
                windowConsumed = consumed
            }
        }

        switch source {
        case .device: return (reportedDelay, false)
        case .monotonic: return (Int(clockFill.rounded(.down)), ranDry)
        }
    }
}

extension PlaybackClock {
    /// The device is gone: from now on only the monotonic clock paces writes.
    mutating func forceMonotonic() {
        source = .monotonic
    }
}
