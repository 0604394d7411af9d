import Terminal
import XCTest

final class LinkPacerTests: XCTestCase {
    func testTwoFramesGoBeforeTheLinkIsMeasuredThenItsBandwidthDelayDecides() {
        var pacer = LinkPacer()
        var now = ContinuousClock.now
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        pacer.didWriteFrame(bytes: 1000, now: now)
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        pacer.didWriteFrame(bytes: 1000, now: now)
        XCTAssertFalse(pacer.mayWriteFrame(now: now))
        pacer.didSkipFrame(now: now)
        now += .milliseconds(100)
        pacer.replyReceived(now: now)
        XCTAssertEqual(pacer.framesInFlight, 1)
        // 1000 bytes in 100 ms: 10 KB/s × (100 ms + 34 ms) = 1340 bytes, room for one frame only.
        XCTAssertEqual(Double(pacer.byteBudget ?? 0), 1340, accuracy: 2)
        XCTAssertFalse(pacer.mayWriteFrame(now: now))
        now += .milliseconds(10)
        pacer.replyReceived(now: now)
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        XCTAssertEqual(pacer.stats.framesSkipped, 1)
    }

    func testStatsAfterASecondOfALimitedLink() {
        var pacer = LinkPacer()
        let start = ContinuousClock.now
        // 60 ticks a second; the link answers one frame of 5000 bytes every 100 ms.
        for tick in 0...60 {
            let now = start + .milliseconds(tick * 1000 / 60)
            if tick % 6 == 0, pacer.framesInFlight > 0 { pacer.replyReceived(now: now) }
            if pacer.mayWriteFrame(now: now) { pacer.didWriteFrame(bytes: 5000, now: now) } else { pacer.didSkipFrame(now: now) }
        }
        XCTAssertTrue(pacer.stats.isLimited)
        XCTAssertGreaterThan(pacer.stats.framesSkippedPerSecond, 40)
        XCTAssertLessThanOrEqual(pacer.stats.framesShownPerSecond, 13)
        XCTAssertEqual(pacer.stats.linkBytesPerSecond ?? 0, 50_000, accuracy: 5000)
        // Under 15 frames a second: the picture should cost less (256 colours).
        XCTAssertTrue(pacer.prefersFewerColors)
    }

    func testATerminalThatNeverAnswersStopsHoldingFramesBack() {
        var pacer = LinkPacer()
        var now = ContinuousClock.now
        var written = 0
        for _ in 0..<(60 * 8) {
            if pacer.mayWriteFrame(now: now) {
                pacer.didWriteFrame(bytes: 100, now: now)
                written += 1
            }
            now += .milliseconds(16)
        }
        XCTAssertTrue(pacer.terminalIgnoresProbes)
        XCTAssertFalse(pacer.wantsProbe)
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        XCTAssertGreaterThan(written, 60 * 8 - 3 * 60 - 10, "three seconds held back at most")
    }

    func testOffWritesEveryFrameWithoutProbes() {
        var pacer = LinkPacer(isEnabled: false)
        let now = ContinuousClock.now
        for _ in 0..<10 {
            XCTAssertTrue(pacer.mayWriteFrame(now: now))
            pacer.didWriteFrame(bytes: 100, now: now)
        }
        XCTAssertFalse(pacer.wantsProbe)
        XCTAssertEqual(pacer.framesInFlight, 0)
    }

    /// A link that sends `bytesPerSecond` one frame after another, `roundTrip` long there and back:
    /// a frame reaches the link half a round trip after it is written, waits for the frames before
    /// it, and its answer comes half a round trip after its last byte arrived.
    private struct SimulatedLink {
        var bytesPerSecond: Double
        /// From then on the link carries `laterBytesPerSecond` (faster or slower).
        var rateChangesAt: ContinuousClock.Instant?
        var laterBytesPerSecond = 0.0
        let roundTrip: Duration
        var freeAt: ContinuousClock.Instant
        var answers: [ContinuousClock.Instant] = []
        var longestWait = Duration.zero
        /// Answers come back two at a time (coalesced on the way back, as TCP may do).
        var answersInPairs = false
        /// Each answer comes up to this much late, by a fixed uneven pattern (a loaded machine, a
        /// terminal that reads in chunks), never before the one ahead of it.
        var answerJitter = Duration.zero
        var mostQueued = 0
        private var arrivals: [ContinuousClock.Instant] = []
        private var sent = 0

        init(bytesPerSecond: Double, roundTrip: Duration, start: ContinuousClock.Instant) {
            self.bytesPerSecond = bytesPerSecond
            self.roundTrip = roundTrip
            freeAt = start
        }

        mutating func send(bytes: Int, now: ContinuousClock.Instant) {
            let reaches = now + roundTrip / 2
            let starts = max(reaches, freeAt)
            longestWait = max(longestWait, starts - reaches)
            let rate = rateChangesAt.map { now >= $0 } ?? false ? laterBytesPerSecond : bytesPerSecond
            freeAt = starts + .seconds(Double(bytes) / rate)
            arrivals.append(freeAt)
            sent += 1
            let late = answerJitter * Double((sent * 7) % 13) / 12
            answers.append(max(answers.last ?? freeAt, freeAt + roundTrip / 2 + late))
            arrivals.removeAll { $0 <= now }
            mostQueued = max(mostQueued, arrivals.count)
        }

        mutating func takeAnswers(now: ContinuousClock.Instant) -> Int {
            var due = answers.filter { $0 <= now }.count
            if answersInPairs, due % 2 == 1, let oldest = answers.first, now - oldest < .milliseconds(200) { due -= 1 }
            answers.removeFirst(due)
            return due
        }
    }

    /// Runs `seconds` of 60 Hz frames of `frameBytes` through the pacer and the link; returns
    /// the frames written in the last half (after the pacer has measured the link).
    private func run(_ link: inout SimulatedLink, frameBytes: Int, seconds: Int, start: ContinuousClock.Instant) -> (pacer: LinkPacer, lateFrames: Int) {
        run(&link, seconds: seconds, start: start) { _ in frameBytes }
    }

    /// The same with each frame's size chosen from the pacer's state (its colour reduction);
    /// `watch` sees the pacer after every tick.
    private func run(_ link: inout SimulatedLink, seconds: Int, start: ContinuousClock.Instant,
                     watch: (LinkPacer, ContinuousClock.Instant) -> Void = { _, _ in },
                     frameBytes: (LinkPacer) -> Int) -> (pacer: LinkPacer, lateFrames: Int) {
        var pacer = LinkPacer()
        var lateFrames = 0
        for millisecond in 0..<(seconds * 1000) {
            let now = start + .milliseconds(millisecond)
            for _ in 0..<link.takeAnswers(now: now) { pacer.replyReceived(now: now) }
            guard millisecond * 60 / 1000 != (millisecond - 1) * 60 / 1000 else { continue }  // a 60 Hz tick
            defer { watch(pacer, now) }
            if pacer.mayWriteFrame(now: now) {
                let bytes = frameBytes(pacer)
                pacer.didWriteFrame(bytes: bytes, now: now)
                link.send(bytes: bytes, now: now)
                if millisecond >= seconds * 500 { lateFrames += 1 }
            } else {
                pacer.didSkipFrame(now: now)
            }
        }
        return (pacer, lateFrames)
    }

    func testAFastLinkWithLatencyKeepsTheFullFrameRate() {
        // 1 MB/s, 40 ms round trip, 13.8 KB frames (the game-like cartridge at 170x80): the link
        // carries 72 frames a second, but two frames per round trip would allow only about 37.
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 1_000_000, roundTrip: .milliseconds(40), start: start)
        let (pacer, lateFrames) = run(&link, frameBytes: 13_800, seconds: 6, start: start)
        XCTAssertGreaterThanOrEqual(lateFrames, 3 * 58, "frames written in 3 s")
        XCTAssertGreaterThan(pacer.framesInFlight, 2)
        XCTAssertEqual(pacer.deliveryRate ?? 0, 828_000, accuracy: 200_000, "what the game offered, at most the link's rate")
        XCTAssertLessThan(link.longestWait, .milliseconds(20), "nothing queues on a link faster than the picture")
    }

    func testASlowLinkNeverQueuesMoreThanAboutTwoFramesOfTime() {
        for bytesPerSecond in [100_000.0, 250_000.0, 400_000.0] {
            let start = ContinuousClock.now
            var link = SimulatedLink(bytesPerSecond: bytesPerSecond, roundTrip: .milliseconds(40), start: start)
            let (pacer, lateFrames) = run(&link, frameBytes: 13_800, seconds: 6, start: start)
            let sending = Duration.seconds(13_800 / bytesPerSecond)
            // At most one frame's sending plus two frame periods waits behind the round trip.
            XCTAssertLessThanOrEqual(link.longestWait, sending + LinkPacer.queueAllowance, "at \(bytesPerSecond) B/s")
            if bytesPerSecond <= 250_000 {
                XCTAssertLessThanOrEqual(link.mostQueued, 2, "frames on their way at \(bytesPerSecond) B/s")
            }
            // And the link is still used: at least half of what it can carry arrives.
            let carried = Double(lateFrames * 13_800) / 3
            XCTAssertGreaterThan(carried, bytesPerSecond / 2, "at \(bytesPerSecond) B/s")
            XCTAssertTrue(pacer.stats.isLimited)
        }
    }

    /// Small frames on a slow link with latency: 650 bytes at 20 KB/s is 33 ms, under the 40 ms
    /// round trip. Were frames sent one at a time, each answer's gap would hold the round trip,
    /// the rate would read half the link's, and the budget would stay at one frame (14 frames a
    /// second). Two frames go before measuring, so answers come back to back and the link's
    /// rate shows: 24 frames a second of the 30 it carries (the rest is `answerLateness`).
    func testSmallFramesOnASlowLinkWithLatencyUseTheLink() {
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 20_000, roundTrip: .milliseconds(40), start: start)
        let (pacer, lateFrames) = run(&link, frameBytes: 650, seconds: 12, start: start)
        XCTAssertGreaterThan(Double(lateFrames) / 6, 22, "frames a second in the last 6 s")
        XCTAssertLessThanOrEqual(link.mostQueued, 2)
        XCTAssertLessThanOrEqual(link.longestWait, .milliseconds(33) + LinkPacer.queueAllowance)
        XCTAssertTrue(pacer.stats.isLimited)
    }

    func testAnswersComingBackInPairsDoNotMakeASlowLinkLookFast() {
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 100_000, roundTrip: .milliseconds(40), start: start)
        link.answersInPairs = true
        let (pacer, _) = run(&link, frameBytes: 13_800, seconds: 6, start: start)
        XCTAssertLessThan(pacer.deliveryRate ?? 0, 200_000)
        XCTAssertLessThanOrEqual(link.longestWait, .seconds(13_800 / 100_000.0) + LinkPacer.queueAllowance)
    }

    func testAnswersReadTogetherAfterAWriteThatWaitedDoNotMakeTheLinkLookFast() {
        // 100 KB/s, 40 ms there and back. A 6 KB frame goes, then a 48 KB one whose write waits
        // for the link until 480 ms: the first answer (due at 100 ms) is read only then, 60 ms
        // before the second's. Timed as read, 48 KB in 60 ms looked like 700 KB/s.
        var pacer = LinkPacer()
        let start = ContinuousClock.now
        XCTAssertTrue(pacer.mayWriteFrame(now: start))
        pacer.didWriteFrame(bytes: 6_000, now: start)
        let second = start + .milliseconds(1)
        XCTAssertTrue(pacer.mayWriteFrame(now: second))
        pacer.didWriteFrame(bytes: 48_000, now: second)
        pacer.outputWaited(since: second)
        pacer.replyReceived(now: start + .milliseconds(480))
        XCTAssertEqual(pacer.roundTrip, .milliseconds(1), "read late: only a lower bound, used while nothing is measured")
        _ = pacer.mayWriteFrame(now: start + .milliseconds(500))  // the next tick: answers are read in time again
        pacer.replyReceived(now: start + .milliseconds(541))
        XCTAssertLessThan(pacer.deliveryRate ?? .infinity, 110_000)
        XCTAssertEqual(pacer.roundTrip, .milliseconds(540), "a measured trip replaces the bound")
    }

    func testAVerySlowLinkStepsDownTo16Colours() {
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 50_000, roundTrip: .milliseconds(40), start: start)
        let (pacer, _) = run(&link, frameBytes: 13_800, seconds: 4, start: start)
        XCTAssertEqual(pacer.colorReduction, .palette16)
        XCTAssertEqual(pacer.stats.colorReduction, .palette16, "the status bar is told")
    }

    func testLateAndBunchedAnswersDoNotMakeTheLinkLookFaster() {
        // 100 KB/s, 3 KB frames (30 ms each), answers up to 20 ms late: one frame's gap can look
        // a few milliseconds long, which once made the link look several times faster than it is
        // and let a backlog build. Over 100 ms of answers the error stays small.
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 100_000, roundTrip: .milliseconds(40), start: start)
        link.answerJitter = .milliseconds(20)
        var fastest = 0.0
        let (pacer, lateFrames) = run(&link, seconds: 6, start: start, watch: { pacer, now in
            if now - start > .seconds(1) { fastest = max(fastest, pacer.deliveryRate ?? 0) }
        }) { _ in 3000 }
        XCTAssertLessThan(fastest, 130_000, "the highest rate measured after the first second")
        XCTAssertLessThanOrEqual(link.longestWait, .milliseconds(30 + 34 + 20), "queued behind the round trip")
        XCTAssertGreaterThan(Double(lateFrames * 3000) / 3, 50_000, "the link is still used")
        XCTAssertTrue(pacer.stats.isLimited)
    }

    /// Frame sizes by colour step on the game-like cartridge at 170x80: at 100 KB/s even 256
    /// colours cannot reach `LinkPacer.moreColorsFramesPerSecond`; at 400 KB/s they can.
    private func gameLikeFrameBytes(_ pacer: LinkPacer) -> Int {
        switch pacer.colorReduction {
        case .none: 13_800
        case .palette256: 9_000
        case .palette16: 3_000
        }
    }

    func testFewerColoursStayWhileTheLinkCouldNotCarryMore() {
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 100_000, roundTrip: .milliseconds(40), start: start)
        var steppedBack = false
        var reached16 = false
        let (pacer, _) = run(&link, seconds: 30, start: start, watch: { pacer, _ in
            if pacer.colorReduction == .palette16 { reached16 = true } else if reached16 { steppedBack = true }
        }, frameBytes: gameLikeFrameBytes)
        XCTAssertTrue(reached16)
        XCTAssertFalse(steppedBack, "256 colours (9 KB a frame) would give 11 frames a second")
        XCTAssertEqual(pacer.colorReduction, .palette16)
    }

    func testMoreColoursComeBackWhenTheLinkBecomesFaster() {
        // 100 KB/s for 10 s (16 colours), then 1 MB/s: 16-colour frames then offer 180 KB/s,
        // which the link carries without skipping, so after 30 s of that 256 colours come back,
        // and 24-bit colour after them (540 KB/s, still carried).
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 100_000, roundTrip: .milliseconds(40), start: start)
        link.rateChangesAt = start + .seconds(10)
        link.laterBytesPerSecond = 1_000_000
        var reached16 = false
        let (pacer, _) = run(&link, seconds: 70, start: start, watch: { pacer, now in
            if now - start < .seconds(10), pacer.colorReduction == .palette16 { reached16 = true }
        }, frameBytes: gameLikeFrameBytes)
        XCTAssertTrue(reached16, "16 colours while the link was slow")
        XCTAssertEqual(pacer.colorReduction, .none)
        XCTAssertEqual(pacer.stats.colorReduction, .none)
        XCTAssertFalse(pacer.stats.isLimited)
    }

    func testTheRateFallsOnceTheFastSamplesAreOlderThanItsWindow() {
        // 1 MB/s for 10 s, then 100 KB/s: the fast answers stop counting `rateWindow` after the
        // change, so the measured rate follows the link down instead of keeping its best figure.
        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 1_000_000, roundTrip: .milliseconds(40), start: start)
        link.rateChangesAt = start + .seconds(10)
        link.laterBytesPerSecond = 100_000
        var rateBeforeTheChange: Double?
        let (pacer, _) = run(&link, seconds: 20, start: start, watch: { pacer, now in
            if now - start < .seconds(10) { rateBeforeTheChange = pacer.deliveryRate }
        }, frameBytes: { _ in 6_000 })
        let before = try! XCTUnwrap(rateBeforeTheChange)
        let after = try! XCTUnwrap(pacer.deliveryRate)
        XCTAssertGreaterThan(before, 300_000, "the fast link was measured")
        XCTAssertLessThan(after, 150_000, "the fast samples expired")
        XCTAssertGreaterThan(after, 50_000, "what the slow link carried is still measured")
        XCTAssertNotNil(pacer.roundTrip)
    }

    /// A terminal on this machine answers each probe at once: after four such answers only
    /// every third frame carries a probe, the frames between count as in flight until its answer,
    /// and a late answer brings back a probe on every frame.
    func testALinkThatAnswersAtOnceIsProbedEveryThirdFrameUntilAnAnswerIsLate() {
        var pacer = LinkPacer()
        var now = ContinuousClock.now
        var probes = 0
        /// One 60 Hz frame of 1000 bytes; its probe (if any) answered after `answerAfter`.
        func frame(answerAfter: Duration) -> Bool {
            XCTAssertTrue(pacer.mayWriteFrame(now: now))
            let probed = pacer.wantsProbe
            pacer.didWriteFrame(bytes: 1000, now: now)
            if probed {
                probes += 1
                pacer.replyReceived(now: now + answerAfter)
            }
            now += .milliseconds(16)
            return probed
        }
        for _ in 0..<4 { XCTAssertTrue(frame(answerAfter: .microseconds(200))) }
        probes = 0
        var pattern: [Bool] = []
        for _ in 0..<9 { pattern.append(frame(answerAfter: .microseconds(200))) }
        XCTAssertEqual(pattern, [false, false, true, false, false, true, false, false, true])
        XCTAssertEqual(probes, 3)
        XCTAssertEqual(pacer.bytesInFlight, 0, "each answer covers the unprobed frames before it")
        // An unprobed frame's bytes are in flight until the next answer.
        XCTAssertFalse(frame(answerAfter: .microseconds(200)))
        XCTAssertEqual(pacer.bytesInFlight, 1000)
        XCTAssertFalse(frame(answerAfter: .microseconds(200)))
        XCTAssertTrue(frame(answerAfter: .milliseconds(30)))  // late: the link slowed
        for _ in 0..<6 { XCTAssertTrue(frame(answerAfter: .milliseconds(30)), "a probe on every frame again") }
    }

    /// Bytes are cheap only on a link known to take them at once: not before four quick answers,
    /// not after a late one, not on a link that limits the picture, not with pacing off.
    func testBytesAreCheapOnlyOnALinkThatAnswersAtOnce() {
        var pacer = LinkPacer()
        var now = ContinuousClock.now
        func frame(answerAfter: Duration) {
            XCTAssertTrue(pacer.mayWriteFrame(now: now))
            let probed = pacer.wantsProbe
            pacer.didWriteFrame(bytes: 1000, now: now)
            if probed { pacer.replyReceived(now: now + answerAfter) }
            now += .milliseconds(16)
        }
        XCTAssertFalse(pacer.bytesAreCheap, "nothing known yet")
        for _ in 0..<3 { frame(answerAfter: .microseconds(200)) }
        XCTAssertFalse(pacer.bytesAreCheap)
        frame(answerAfter: .microseconds(200))
        XCTAssertTrue(pacer.bytesAreCheap)
        for _ in 0..<8 { frame(answerAfter: .microseconds(200)) }
        XCTAssertTrue(pacer.bytesAreCheap)
        while !pacer.wantsProbe { frame(answerAfter: .microseconds(200)) }
        frame(answerAfter: .milliseconds(30))
        XCTAssertFalse(pacer.bytesAreCheap, "a late answer: the link may be remote")
        XCTAssertFalse(LinkPacer(isEnabled: false).bytesAreCheap, "pacing off: nothing is known")

        let start = ContinuousClock.now
        var link = SimulatedLink(bytesPerSecond: 250_000, roundTrip: .milliseconds(2), start: start)
        let (limited, _) = run(&link, frameBytes: 13_800, seconds: 3, start: start)
        XCTAssertTrue(limited.stats.isLimited)
        XCTAssertFalse(limited.bytesAreCheap, "a link that limits the picture")
    }

    /// On a simulated link with no latency that each frame keeps busy 3 ms (a terminal on this
    /// machine reading the picture), the fewer probes still never let frames pile up.
    func testFewerProbesOnAFastLinkStillQueueNothing() {
        let start = ContinuousClock.now
        var pacer = LinkPacer()
        var freeAt = start
        var answers: [ContinuousClock.Instant] = []
        var probes = 0, frames = 0
        var longestWait = Duration.zero
        for millisecond in 0..<3000 {
            let now = start + .milliseconds(millisecond)
            while let first = answers.first, first <= now {
                answers.removeFirst()
                pacer.replyReceived(now: now)
            }
            guard millisecond * 60 / 1000 != (millisecond - 1) * 60 / 1000 else { continue }
            guard pacer.mayWriteFrame(now: now) else { pacer.didSkipFrame(now: now); continue }
            let probed = pacer.wantsProbe
            pacer.didWriteFrame(bytes: 3000, now: now)
            frames += 1
            // 1 MB/s: 3 ms a frame, on a link free again long before the next frame.
            longestWait = max(longestWait, max(.zero, freeAt - now))
            freeAt = max(freeAt, now) + .milliseconds(3)
            if probed {
                probes += 1
                answers.append(freeAt)
            }
        }
        XCTAssertGreaterThanOrEqual(frames, 179, "every frame of 3 s")
        XCTAssertLessThan(probes, frames / 2, "\(probes) probes for \(frames) frames")
        XCTAssertEqual(longestWait, .zero)
    }
}
