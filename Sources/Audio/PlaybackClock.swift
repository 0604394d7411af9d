/// Estimates how many frames the device still has queued, and notices when it ran dry.
///
/// A real sound card reports its queue through snd_pcm_delay and plays in real time. The `null` and
/// `file` PCMs (and some network sinks) "play" anything instantly and report an empty queue forever;
/// trusting them would make the audio thread race through the ring and pin the rate controller.
/// So the clock watches the device: it is `freeRunning` when it reports an empty queue right after
/// being written to three observations in a row (a real device that empty would report an underrun
/// instead), or when it consumes more than 5% faster than real time plus a whole buffer within a
/// window. From then on, for good, the monotonic clock stands in for the device: a model PCM that
/// starts once `startThreshold` frames are queued, plays at `rate` in real time, and stops (an
/// underrun) when it runs out, like ALSA does.
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
    /// Frames the model PCM waits for before it starts playing (half the buffer, as AudioOutput sets
    /// the real device's start threshold).
    let startThreshold: Int
    private(set) var source: Source = .device
    private(set) var framesWritten = 0

    /// Model PCM: stopped until `startThreshold` is queued; while running it had consumed
    /// `anchorFrames` at `anchorTime` and consumes on at `rate`.
    private var modelRunning = false
    private var anchorTime = 0.0
    private var anchorFrames = 0.0

    /// Free-running detection.
    private var writtenSinceObservation = 0
    private var emptyAfterWriteCount = 0
    private var windowTime: Double?
    private var windowConsumed = 0

    /// Length of a detection window. A real device 0.5% fast gains only 480 frames in it.
    static let detectionWindow = 2.0
    /// Observations of "empty right after a write" that prove a device free-running.
    static let emptyObservationsToSwitch = 3

    init(rate: Double, bufferFrames: Int) {
        self.rate = rate
        self.bufferFrames = bufferFrames
        startThreshold = max(1, bufferFrames / 2)
    }

    /// Records frames handed to the device at time `now`.
    mutating func didWrite(_ frames: Int, at now: Double) {
        if windowTime == nil {
            windowTime = now
            windowConsumed = framesWritten
        }
        framesWritten += frames
        writtenSinceObservation += frames
    }

    /// The device underran and was recovered: its report restarts, so restart the window too.
    mutating func deviceRecovered(at now: Double, reportedDelay: Int) {
        windowTime = now
        windowConsumed = framesWritten - reportedDelay
        emptyAfterWriteCount = 0
        writtenSinceObservation = 0
    }

    /// The device is gone or proved free-running: from now on only the monotonic clock paces writes.
    mutating func forceMonotonic() {
        guard source != .monotonic else { return }
        source = .monotonic
        modelRunning = false
        anchorFrames = Double(framesWritten)
    }

    /// Frames queued at `now`, given what snd_pcm_delay reported. `ranDry` is true when the model PCM
    /// (monotonic source) ran out: an underrun the free-running device itself cannot report.
    mutating func fill(at now: Double, reportedDelay: Int) -> (fill: Int, ranDry: Bool) {
        if source == .device {
            detectFreeRunning(at: now, reportedDelay: reportedDelay)
        }
        writtenSinceObservation = 0
        guard source == .monotonic else { return (reportedDelay, false) }

        if !modelRunning {
            let queued = Double(framesWritten) - anchorFrames
            if queued >= Double(startThreshold) {
                modelRunning = true
                anchorTime = now
            }
            return (Int(queued), false)
        }
        let queued = Double(framesWritten) - (anchorFrames + (now - anchorTime) * rate)
        if queued < 0 {
            modelRunning = false
            anchorFrames = Double(framesWritten)
            return (0, true)
        }
        return (Int(queued.rounded(.down)), false)
    }

    private mutating func detectFreeRunning(at now: Double, reportedDelay: Int) {
        if reportedDelay == 0 && writtenSinceObservation > 0 {
            emptyAfterWriteCount += 1
        } else if reportedDelay > 0 {
            emptyAfterWriteCount = 0
        }
        var tooFast = false
        if let start = windowTime {
            let consumed = framesWritten - reportedDelay
            let allowed = (now - start) * rate * 1.05 + Double(bufferFrames)
            if Double(consumed - windowConsumed) > allowed {
                tooFast = true
            } else if now - start >= PlaybackClock.detectionWindow {
                windowTime = now
                windowConsumed = consumed
            }
        }
        if tooFast || emptyAfterWriteCount >= PlaybackClock.emptyObservationsToSwitch {
            forceMonotonic()
        }
    }
}
