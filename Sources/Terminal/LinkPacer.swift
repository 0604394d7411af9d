import PhosphorKit

/// Keeps the picture within about two frames of what the link to the terminal can carry.
///
/// `TerminalSession.write` blocks once the pty is full, and over SSH every buffer between the
/// game and the screen (pty, sshd, TCP) fills before it does: the picture would lag by seconds.
/// So each frame's bytes are followed by a probe, a cursor-position request (`CSI 6 n`), and the
/// terminal's answer (`CSI row;col R`) says the frame has crossed the whole link (the local pty's
/// queue, `TIOCOUTQ`, would only see sshd's side).
///
/// How much may be out at once is a bandwidth-delay product: the link's rate times the round
/// trip plus `queueAllowance` (two frame periods). The link carries frames in order, so the
/// frames answered after an earlier answer took at least their bytes' sending time since it:
/// bytes over that gap never exceed the link's rate (on an idle link they fall short), and the
/// highest of the last two seconds counts. But answers come back late by a few milliseconds (the
/// terminal's reads, TCP, a loaded machine): one small frame over a gap shortened so looked several
/// times faster than the link, and the budget let a backlog of hundreds of milliseconds build.
/// So each gap gets `answerLateness` added (it still bounds the rate if no answer is later than
/// that), gaps over several frames count too (where that margin matters less), and a gap never
/// starts at an answer read together with the next one (the earlier of the two was held back).
/// A frame's whole trip bounds the rate as well. The round trip is the quickest answer of the
/// last ten seconds. A fast link with latency so keeps several frames in flight and shows
/// every frame; a slow one holds at most one frame's sending time plus two frame periods beyond
/// the round trip. Before anything is measured at most `framesInFlightBeforeMeasuring` frames go.
/// A frame that finds the link full is skipped (the next one shows the game as it is then), so a
/// slow link lowers the frame rate first; `colorReduction` says when even that is not enough and
/// the picture should cost less per frame (256, then 16 colours). More colours come back only
/// when they would now get `moreColorsFramesPerSecond` through: the frames a second they got
/// the last time, scaled by how much faster the link looks now; or after the link kept up for
/// `fewerColorsFor` × 3 (it may have become faster than what it is offered shows). Trying them
/// again blindly every ten seconds filled the link for a second or two each time. Input never
/// waits on this.
///
/// A link that answers at once (a terminal on this machine: the last `quickAnswersForFewerProbes`
/// answers each within `quickAnswer`) is probed only on every `probeInterval`-th frame while
/// nothing else is out: each answer wakes the UI thread, and a probe per frame cost a tenth of a
/// play run's CPU (`make bench` 4). The frames between go unprobed, their bytes count as in
/// flight, and the next probe's answer covers them all; a late answer (the link slowed, or it
/// runs over SSH) brings back a probe per frame, so at most `probeInterval - 1` frames go out
/// unseen.
///
/// Answers are timed when the UI thread reads them, so a write that waited for the link (the
/// pty was full) hides when the answers that came meanwhile arrived: read together at its end,
/// two answers a frame apart once looked a few milliseconds apart, the link several times
/// faster than it was, and the backlog that followed inflated every round trip after it (key to
/// screen 250–500 ms at 100 KB/s in about a third of the bench's runs). So the writer says when
/// a write waited (`outputWaited`); the trip of an answer read after it counts from the
/// earliest it may have come (a lower bound, used only while no trip is measured), and so does a
/// rate.
///
/// Any frame writer can use it: ask `mayWriteFrame`, append `probe` to the frame's bytes, call
/// `didWriteFrame`, and feed it the terminal's answers with `replyReceived`. Pure value with the
/// clock passed in, so tests drive it with a manual clock. UI thread only.
public struct LinkPacer: Sendable {
    /// Frames out before the link's rate and round trip are known.
    public static let framesInFlightBeforeMeasuring = 2
    /// Never more frames than this out, however fast the link looks.
    public static let maximumFramesInFlight = 12
    /// Queueing allowed beyond the round trip: two frames at 60 Hz.
    public static let queueAllowance = Duration.milliseconds(34)
    /// An answer later than this is given up on (a terminal that never answers `CSI 6 n`).
    public static let replyTimeout = Duration.seconds(1)
    /// Moves the cursor to the bottom row first, so the answer's row is never 1: `CSI 1;m R` is
    /// also what F3 with modifiers sends.
    public static let probe: [UInt8] = Array("\u{1B}[9999;1H\u{1B}[6n".utf8)

    /// A frame written and not answered yet: with the unprobed frames before it, from `batchStart`.
    public struct FrameInFlight: Sendable {
        public var bytes: Int
        /// When its probe went out (the round trip is measured from here).
        public var sentAt: ContinuousClock.Instant
        /// When the first of its bytes went out (a rate measured from here never overstates the link).
        public var batchStart: ContinuousClock.Instant
    }

    /// On a link that answers at once, a probe on every this many frames.
    public static let probeInterval = 3
    /// An answer this soon after its probe counts as at once (a quarter of a 60 Hz frame).
    static let quickAnswer = Duration.milliseconds(4)
    /// How many answers in a row must come at once before frames go unprobed.
    static let quickAnswersForFewerProbes = 4

    /// An answered frame, kept for `rateWindow` to measure the rate over several of them.
    struct AnsweredFrame: Sendable {
        var bytes: Int
        var answeredAt: ContinuousClock.Instant
        /// `answeredAt` as nanoseconds since `timeOrigin`: `rateBound` walks every answer of the
        /// last `rateWindow` at each answer, and its 128-bit `Duration` arithmetic was over half of
        /// `replyReceived`'s 2.6% of a play run's CPU (perf); integers compare the same, exactly.
        var nanoseconds: Int64
        /// The earliest it may have come, the same way: `nanoseconds` unless it was read after a
        /// write that waited (`outputWaited`).
        var earliestNanoseconds: Int64
    }

    /// How much cheaper each frame should be drawn.
    public enum ColorReduction: Int, Sendable, Comparable {
        case none, palette256, palette16
        public static func < (a: ColorReduction, b: ColorReduction) -> Bool { a.rawValue < b.rawValue }
    }

    /// What the status bar shows, recomputed once a second.
    public struct Stats: Sendable, Equatable {
        /// Bytes written to the terminal in the last second.
        public var bytesPerSecond = 0
        /// Frames written in the last second.
        public var framesShownPerSecond = 0
        /// Frames skipped (link busy) in the last second, and since the start.
        public var framesSkippedPerSecond = 0
        public var framesSkipped = 0
        /// What the link delivered in the last second while it was the limit (nil: not limited).
        public var linkBytesPerSecond: Int?
        public var isLimited: Bool { linkBytesPerSecond != nil }
        /// The colour step the link forced at the end of that second: once fewer colours make the
        /// frames cheap enough, nothing is skipped any more, yet the link is still why they are fewer.
        public var colorReduction = ColorReduction.none

        public init() {}
    }

    /// Off: every frame is written (the old behaviour, for comparison in `make bench`).
    public var isEnabled: Bool
    public private(set) var stats = Stats()
    /// Frames written and not yet answered, oldest first.
    private var inFlight = TimeOrderedQueue<FrameInFlight>()
    /// How many frames are written and not yet answered.
    public var framesInFlight: Int { inFlight.count }
    /// Bytes written and not answered.
    public private(set) var bytesInFlight = 0
    /// True after `replyTimeout` passed three times in a row: the terminal does not answer, so
    /// frames are no longer held back (as before the pacer).
    public private(set) var terminalIgnoresProbes = false
    /// The link could not carry even a few frames a second: draw fewer colours (one step each
    /// second that stays so, back one step after `fewerColorsFor`).
    public private(set) var colorReduction = ColorReduction.none
    public var prefersFewerColors: Bool { colorReduction != .none }

    private var timeoutsInARow = 0
    /// Answers in a row that came within `quickAnswer`.
    private var quickAnswersInARow = 0
    /// Frames written since the last probe, their bytes (also in `bytesInFlight`) and when the first went.
    private var unprobedFrames = 0
    private var unprobedBytes = 0
    private var unprobedSince: ContinuousClock.Instant?
    private var windowStart: ContinuousClock.Instant?
    private var windowBytes = 0
    private var windowFrames = 0
    private var windowSkipped = 0
    private var windowAnsweredBytes = 0
    private var fewerColorsSince: ContinuousClock.Instant?
    /// Since when no frame was skipped (nil: the last second skipped some).
    private var unlimitedSince: ContinuousClock.Instant?
    /// A write waited for the link from then on: answers read before the next frame may have
    /// come any time since (nil: answers are read as they come).
    private var answersReadLateSince: ContinuousClock.Instant?
    private var lastFrameBytes = 0
    /// The last second drawn at each colour reduction: frames shown and the link's rate then.
    private var lastSecondAt: [ColorReduction: (framesPerSecond: Int, rate: Double?)] = [:]
    private var answered = TimeOrderedQueue<AnsweredFrame>()
    /// The first answer's time: `AnsweredFrame.nanoseconds` counts from it.
    private var timeOrigin: ContinuousClock.Instant?
    /// Recent delivery-rate samples (bytes per second) and round trips, with when they were taken.
    private var rateSamples = TimeOrderedQueue<RateSample>()
    private var roundTripSamples = TimeOrderedQueue<RoundTripSample>()

    /// A measurement and when it was taken. Two concrete types, not one generic one or a tuple:
    /// those went through the runtime's generic value witnesses at every answer (perf).
    struct RateSample: Sendable {
        var value: Double
        var at: ContinuousClock.Instant
    }

    struct RoundTripSample: Sendable {
        var value: Duration
        var at: ContinuousClock.Instant
        /// From an answer read late: the shortest trip it may have had, not its trip.
        var isLowerBound = false
    }

    /// Below this many frames a second on a limited link, the picture switches to fewer colours.
    static let fewestFramesPerSecond = 15
    /// How long fewer colours stay before more are tried again.
    static let fewerColorsFor = Duration.seconds(10)
    static let rateWindow = Duration.seconds(2)
    /// How late an answer may come without making the link look faster (see the type's comment).
    static let answerLateness = Duration.milliseconds(10)
    /// A write that took longer than this waited for the link (`outputWaited`).
    public static let waitingWrite = Duration.milliseconds(5)
    /// More colours come back only if the link would carry them at this many frames a second.
    static let moreColorsFramesPerSecond = 20
    static let roundTripWindow = Duration.seconds(10)

    public init(isEnabled: Bool = true) {
        self.isEnabled = isEnabled
    }

    /// The link's delivery rate in bytes per second: the highest recent sample (nil: not measured
    /// yet). Kept up to date by `replyReceived`, the only place the samples change.
    public private(set) var deliveryRate: Double?
    /// The quickest answer lately: the round trip plus one frame's sending time.
    public private(set) var roundTrip: Duration?
    /// Bytes that may be out at once: rate × (round trip + `queueAllowance`); nil before measuring.
    public var byteBudget: Int? {
        guard let rate = deliveryRate, let roundTrip else { return nil }
        return Int(rate * (roundTrip + LinkPacer.queueAllowance).inSeconds)
    }

    /// Whether a frame may be written now (false: skip it, the link has not caught up).
    public mutating func mayWriteFrame(now: ContinuousClock.Instant) -> Bool {
        // The loop has read what came during the last write since: answers are timely again.
        answersReadLateSince = nil
        guard isEnabled, !terminalIgnoresProbes else { return true }
        while let oldest = inFlight.first, now - oldest.sentAt > LinkPacer.replyTimeout {
            bytesInFlight -= inFlight.removeFirst().bytes
            timeoutsInARow += 1
            if timeoutsInARow >= 3 { terminalIgnoresProbes = true }
        }
        if inFlight.isEmpty { return true }
        guard inFlight.count < LinkPacer.maximumFramesInFlight else { return false }
        guard let budget = byteBudget else { return inFlight.count < LinkPacer.framesInFlightBeforeMeasuring }
        // The next frame is guessed to cost what the last one did.
        return bytesInFlight + lastFrameBytes <= budget
    }

    /// Whether bytes are cheap on this link: it answers at once (the last `quickAnswersForFewerProbes`
    /// answers each within `quickAnswer`: a terminal on this machine or a quick network), and
    /// it took every frame in the last second at full colour. The picture may then spend less
    /// CPU for a few more bytes (`TerminalEncoder.plansRows` off); anywhere else, or before
    /// anything is known, bytes come first.
    public var bytesAreCheap: Bool {
        isEnabled && !terminalIgnoresProbes && quickAnswersInARow >= LinkPacer.quickAnswersForFewerProbes
            && !stats.isLimited && colorReduction == .none
    }

    /// Whether the next frame's bytes should be followed by `probe` (ask once per frame, just
    /// before `didWriteFrame`: the answer depends on what is in flight).
    public var wantsProbe: Bool {
        guard isEnabled, !terminalIgnoresProbes else { return false }
        let answersAtOnce = quickAnswersInARow >= LinkPacer.quickAnswersForFewerProbes && inFlight.isEmpty
            && colorReduction == .none
        return !answersAtOnce || unprobedFrames >= LinkPacer.probeInterval - 1
    }

    /// A frame of `bytes` (probe included, if `wantsProbe` said so) was written.
    public mutating func didWriteFrame(bytes: Int, now: ContinuousClock.Instant) {
        let probed = wantsProbe
        roll(now)
        windowBytes += bytes
        windowFrames += 1
        lastFrameBytes = bytes
        guard isEnabled, !terminalIgnoresProbes else { return }
        bytesInFlight += bytes
        if probed {
            inFlight.append(FrameInFlight(bytes: bytes + unprobedBytes, sentAt: now, batchStart: unprobedSince ?? now))
            unprobedFrames = 0
            unprobedBytes = 0
            unprobedSince = nil
        } else {
            unprobedFrames += 1
            unprobedBytes += bytes
            unprobedSince = unprobedSince ?? now
        }
    }

    /// A write of frame bytes that began at `start` waited for the link (it took longer than
    /// `waitingWrite`): until the next `mayWriteFrame`, answers may have come any time since.
    public mutating func outputWaited(since start: ContinuousClock.Instant) {
        answersReadLateSince = min(answersReadLateSince ?? start, start)
    }

    /// A frame was due but the link was busy.
    public mutating func didSkipFrame(now: ContinuousClock.Instant) {
        roll(now)
        windowSkipped += 1
        stats.framesSkipped += 1
    }

    /// The terminal answered a probe: the oldest frame in flight has arrived.
    public mutating func replyReceived(now: ContinuousClock.Instant) {
        guard !inFlight.isEmpty else { return }
        timeoutsInARow = 0
        let frame = inFlight.removeFirst()
        quickAnswersInARow = now - frame.sentAt <= LinkPacer.quickAnswer ? quickAnswersInARow + 1 : 0
        bytesInFlight -= frame.bytes
        windowAnsweredBytes += frame.bytes
        let origin = timeOrigin ?? min(now, answersReadLateSince ?? now)
        timeOrigin = origin
        let nanoseconds = (now - origin).nanoseconds
        // Read late, it came after the write began waiting, and after the answer ahead of it.
        var earliest = answersReadLateSince.map { ($0 - origin).nanoseconds } ?? nanoseconds
        if let ahead = answered.last { earliest = max(earliest, ahead.earliestNanoseconds) }
        earliest = min(earliest, nanoseconds)
        answered.append(AnsweredFrame(bytes: frame.bytes, answeredAt: now, nanoseconds: nanoseconds,
                                      earliestNanoseconds: earliest))
        // Samples were appended in time order, so the expired ones are the oldest.
        answered.removeFirst { now - $0.answeredAt > LinkPacer.rateWindow }
        if let rate = rateBound(sentAt: frame.batchStart, now: now) { rateSamples.append(RateSample(value: rate, at: now)) }
        // Read late, the answer's trip is known only to be at least from its send to its earliest.
        let trip = Duration.nanoseconds(earliest - nanoseconds) + (now - frame.sentAt)
        roundTripSamples.append(RoundTripSample(value: max(trip, .zero), at: now, isLowerBound: answersReadLateSince != nil))
        rateSamples.removeFirst { now - $0.at > LinkPacer.rateWindow }
        roundTripSamples.removeFirst { now - $0.at > LinkPacer.roundTripWindow }
        var highestRate: Double?  // every sample is above 0
        for offset in 0..<rateSamples.count { highestRate = max(highestRate ?? 0, rateSamples[offset].value) }
        deliveryRate = highestRate
        // The quickest measured trip; only while there is none, the quickest lower bound, which
        // keeps few bytes out (writes then stop waiting, and answers are timed again).
        var quickest: Duration?, quickestBound: Duration?
        for offset in 0..<roundTripSamples.count {
            let sample = roundTripSamples[offset]
            if sample.isLowerBound {
                quickestBound = min(quickestBound ?? sample.value, sample.value)
            } else {
                quickest = min(quickest ?? sample.value, sample.value)
            }
        }
        roundTrip = quickest ?? quickestBound
        roll(now)
    }

    /// The highest rate the newest answer proves the link has: its frame's bytes over its whole
    /// trip, and the bytes answered since each earlier answer over that gap plus `answerLateness`
    /// (not from an answer read together with the one after it; from the earliest an answer read
    /// late may have come). Nil when nothing is measurable.
    private func rateBound(sentAt: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Double? {
        guard let newest = answered.last else { return nil }
        let trip = now - sentAt
        var best = trip >= .milliseconds(1) ? Double(newest.bytes) / trip.inSeconds : 0
        var bytes = newest.bytes
        let millisecond: Int64 = 1_000_000
        let lateness = LinkPacer.answerLateness.nanoseconds
        for index in stride(from: answered.count - 2, through: 0, by: -1) {
            let start = answered[index]
            defer { bytes += start.bytes }
            guard answered[index + 1].nanoseconds - start.nanoseconds >= millisecond else { continue }
            let gap = newest.nanoseconds - start.earliestNanoseconds + lateness
            best = max(best, Double(bytes) / (Double(gap) / 1e9))
        }
        return best > 0 ? best : nil
    }

    /// Whether the next richer colour step would now get `moreColorsFramesPerSecond` through
    /// (see the type's comment; true when it was never measured).
    private func linkCarriesMoreColors(now: ContinuousClock.Instant) -> Bool {
        guard colorReduction != .none, let richer = ColorReduction(rawValue: colorReduction.rawValue - 1) else { return false }
        guard let then = lastSecondAt[richer] else { return true }
        if let unlimitedSince, now - unlimitedSince >= LinkPacer.fewerColorsFor * 3 { return true }
        var framesPerSecond = Double(then.framesPerSecond)
        if let rateThen = then.rate, rateThen > 0, let rate = deliveryRate { framesPerSecond *= rate / rateThen }
        return framesPerSecond >= Double(LinkPacer.moreColorsFramesPerSecond)
    }

    /// Forgets the frames in flight (the screen was covered by a menu, whose answers went elsewhere).
    public mutating func forgetFramesInFlight() {
        inFlight.removeAll()
        bytesInFlight = 0
        unprobedFrames = 0
        unprobedBytes = 0
        unprobedSince = nil
        quickAnswersInARow = 0
    }

    /// Publishes the last second's counts once it is over.
    private mutating func roll(_ now: ContinuousClock.Instant) {
        let start = windowStart ?? now
        windowStart = start
        let elapsed = now - start
        guard elapsed >= .seconds(1) else { return }
        let seconds = elapsed.inSeconds
        stats.bytesPerSecond = Int(Double(windowBytes) / seconds)
        stats.framesShownPerSecond = Int((Double(windowFrames) / seconds).rounded())
        stats.framesSkippedPerSecond = Int((Double(windowSkipped) / seconds).rounded())
        stats.linkBytesPerSecond = windowSkipped > 0 ? Int(Double(windowAnsweredBytes) / seconds) : nil
        lastSecondAt[colorReduction] = (stats.framesShownPerSecond, deliveryRate)
        if stats.isLimited { unlimitedSince = nil } else if unlimitedSince == nil { unlimitedSince = now }
        if stats.isLimited && stats.framesShownPerSecond < LinkPacer.fewestFramesPerSecond {
            // One step cheaper each second the link stays this slow.
            if colorReduction < .palette16 {
                colorReduction = ColorReduction(rawValue: colorReduction.rawValue + 1) ?? .palette16
                fewerColorsSince = now
            }
        } else if colorReduction != .none, let since = fewerColorsSince, now - since >= LinkPacer.fewerColorsFor,
                  linkCarriesMoreColors(now: now) {
            colorReduction = ColorReduction(rawValue: colorReduction.rawValue - 1) ?? .none
            fewerColorsSince = now
        }
        stats.colorReduction = colorReduction
        windowStart = now
        windowBytes = 0
        windowFrames = 0
        windowSkipped = 0
        windowAnsweredBytes = 0
    }
}
