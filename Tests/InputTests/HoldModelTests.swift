import XCTest
@testable import Input

final class HoldModelTests: XCTestCase {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    /// Feeds `(milliseconds, event)` pairs and returns the model.
    func model(release: Bool, _ events: [(Int, KeyEvent)]) -> HoldModel {
        var model = HoldModel(releaseEvents: release)
        for (time, event) in events { model.handle(event, now: at(time)) }
        return model
    }

    /// Feeds the events in time order while stepping a clock in `step` ms up to `end`, and returns
    /// the keys held at each step (the model answers about the present, so the queries interleave).
    func heldTimeline(_ events: [(Int, KeyEvent)], timing: HoldTiming = .standard, through end: Int,
                      step: Int = 5) -> [Int: Set<Key>] {
        var model = HoldModel(releaseEvents: false, timing: timing)
        let sorted = events.sorted { $0.0 < $1.0 }
        var index = 0
        var timeline: [Int: Set<Key>] = [:]
        for time in stride(from: 0, through: end, by: step) {
            while index < sorted.count, sorted[index].0 <= time {
                model.handle(sorted[index].1, now: at(sorted[index].0))
                index += 1
            }
            timeline[time] = model.heldKeys(now: at(time))
        }
        return timeline
    }

    /// Presses of `key` at the given times (legacy terminals send autorepeat as more presses).
    func presses(_ key: Key, at times: [Int]) -> [(Int, KeyEvent)] {
        times.map { ($0, KeyEvent(key)) }
    }

    func testLegacyTapIsOneShortPress() {
        let model = model(release: false, [(0, KeyEvent(.right))])
        XCTAssertTrue(model.isHeld(.right, now: at(0)))
        XCTAssertTrue(model.isHeld(.right, now: at(65)), "a tap lasts the tap length (66 ms, four frames)")
        XCTAssertFalse(model.isHeld(.right, now: at(66)))
        XCTAssertFalse(model.isHeld(.right, now: at(400)), "not the 700 ms it used to be")
        XCTAssertTrue(model.isAutorepeat(.right, now: at(900)), "a press now would be its first repeat")
        XCTAssertFalse(model.isAutorepeat(.right, now: at(1000)), "the first-repeat window (1 s until measured) is over")
    }

    func testLegacyTapLengthIsTheSetLength() {
        var model = HoldModel(releaseEvents: false, timing: HoldTiming(tapLength: .milliseconds(80)))
        model.handle(KeyEvent(.character("x")), now: at(0))
        XCTAssertTrue(model.isHeld(.character("x"), now: at(79)))
        XCTAssertFalse(model.isHeld(.character("x"), now: at(80)))
    }

    func testLegacyTwoTapsFarApartAreTwoShortPresses() {
        let timeline = heldTimeline(presses(.down, at: [0, 1000]), through: 1100, step: 1)
        XCTAssertEqual(timeline.filter { $0.value.contains(.down) }.keys.sorted(), Array(0..<66) + Array(1000..<1066))
    }

    func testLegacyHeldKeyIsHeldFromItsFirstRepeatUntilTheRepeatsStop() {
        // Press at 0, first repeat at 500 ms, then every 33 ms until 1490 (fixed timing: gap 100 ms).
        let repeats = Array(stride(from: 500, through: 1490, by: 33))
        let lastRepeat = repeats.last!
        let timeline = heldTimeline(presses(.up, at: [0] + repeats), timing: HoldTiming(adaptsToMeasuredRepeat: false),
                                    through: lastRepeat + 200, step: 1)
        for (time, held) in timeline {
            let expected = time < 66 || (time >= 500 && time < lastRepeat + 100)
            XCTAssertEqual(held.contains(.up), expected, "at \(time) ms")
        }
    }

    func testMeasuredRepeatTimingIsAdopted() {
        // A keyboard set to 300 ms delay, 30 repeats a second: the model learns it from one hold.
        let repeats = Array(stride(from: 300, through: 900, by: 30))
        var model = model(release: false, presses(.left, at: [0] + repeats))
        XCTAssertEqual(model.measuredRepeat, RepeatTiming(delay: .milliseconds(300), interval: .milliseconds(30)))
        XCTAssertEqual(model.timing.initialDelay, .milliseconds(360), "delay plus its margin")
        XCTAssertEqual(model.timing.repeatGap, .milliseconds(65), "one and a half intervals plus 20 ms")
        XCTAssertTrue(model.isHeld(.left, now: at(964)))
        XCTAssertFalse(model.isHeld(.left, now: at(965)), "held exactly until the repeats stop (gap + margin)")
        // With the shorter delay learnt, a press 400 ms after a tap is a new press, not a repeat.
        model.handle(KeyEvent(.left), now: at(2000))
        XCTAssertFalse(model.isAutorepeat(.left, now: at(2400)))
        XCTAssertTrue(model.isAutorepeat(.left, now: at(2300)))
    }

    func testFirstRepeatLaterThanTheWindowIsStillMeasured() {
        // A configured window of 650 ms and X11's 660 ms delay: the first repeat looks like a new
        // press, yet the train after it shows what it was, and the real delay is learnt.
        let timing = HoldTiming(initialDelay: .milliseconds(650))
        var model = HoldModel(releaseEvents: false, timing: timing)
        for time in [0] + Array(stride(from: 660, through: 1100, by: 40)) { model.handle(KeyEvent(.right), now: at(time)) }
        XCTAssertEqual(model.measuredRepeat, RepeatTiming(delay: .milliseconds(660), interval: .milliseconds(40)))
        XCTAssertEqual(model.timing.initialDelay, .milliseconds(759))
    }

    func testDoubleTapIsNotTakenForAutorepeatTiming() {
        let model = model(release: false, presses(.character("z"), at: [0, 200, 1500, 1700]))
        XCTAssertNil(model.measuredRepeat)
        XCTAssertEqual(model.timing, .standard)
    }

    func testKnownRepeatTimingSeedsTheModel() {
        var model = HoldModel(releaseEvents: false)
        model.adopt(RepeatTiming(delay: .milliseconds(250), interval: .milliseconds(40)))
        XCTAssertEqual(model.timing.initialDelay, .milliseconds(310))
        XCTAssertEqual(model.timing.repeatGap, .milliseconds(80))
        model.adopt(RepeatTiming(delay: .milliseconds(5), interval: .milliseconds(40)))
        XCTAssertEqual(model.timing.initialDelay, .milliseconds(310), "an implausible timing is ignored")
    }

    func testLegacyTwoKeysAreIndependentAndTheOlderIsCarried() {
        // Right repeats, then X is pressed: X11 stops Right's repeats, but Right stays held as long
        // as X is held or may still start repeating.
        var events: [(Int, KeyEvent)] = presses(.right, at: [0] + Array(stride(from: 500, through: 800, by: 33)))
        events += presses(.character("x"), at: [820] + Array(stride(from: 1320, through: 1600, by: 33)))
        let timeline = heldTimeline(events, through: 1700)
        XCTAssertEqual(timeline[850], [.right, .character("x")])
        XCTAssertEqual(timeline[1000], [.right], "X's tap is over, Right is still held")
        for time in stride(from: 500, through: 1600, by: 5) { XCTAssertEqual(timeline[time]?.contains(.right), true, "Right at \(time)") }
        XCTAssertEqual(timeline[1600], [.right, .character("x")])
        XCTAssertEqual(timeline[1700], [])

        let independent = heldTimeline(events, timing: HoldTiming(carryHeldKeys: false), through: 1700)
        XCTAssertEqual(independent[1000], [])
        XCTAssertEqual(independent[1400], [.character("x")])
    }

    func testLegacyDiagonalTappedTogether() {
        let timeline = heldTimeline([(0, KeyEvent(.up)), (5, KeyEvent(.left))], through: 100)
        XCTAssertEqual(timeline[30], [.up, .left])
        XCTAssertEqual(timeline[100], [], "two taps are not carried")
    }

    func testKittyPressAndRelease() {
        let model = model(release: true, [
            (0, KeyEvent(.up)), (400, KeyEvent(.up, kind: .repeat)), (1000, KeyEvent(.up, kind: .release)),
            (10, KeyEvent(.left)), (20, KeyEvent(.left, kind: .release)),
        ])
        XCTAssertTrue(model.isHeld(.up, now: at(999)))
        XCTAssertFalse(model.isHeld(.up, now: at(1000)))
        // A 10 ms tap still lasts the minimum press (50 ms), so a frame sees it.
        XCTAssertTrue(model.isHeld(.left, now: at(40)))
        XCTAssertTrue(model.isHeld(.left, now: at(59)))
        XCTAssertFalse(model.isHeld(.left, now: at(60)))
    }

    func testKittyHoldDoesNotExpireWithoutRelease() {
        let model = model(release: true, [(0, KeyEvent(.character("z")))])
        XCTAssertTrue(model.isHeld(.character("z"), now: at(60_000)))
    }

    func testKittyPressAgainAfterRelease() {
        var model = model(release: true, [(0, KeyEvent(.up)), (100, KeyEvent(.up, kind: .release))])
        XCTAssertFalse(model.isHeld(.up, now: at(150)))
        model.handle(KeyEvent(.up), now: at(200))
        XCTAssertTrue(model.isHeld(.up, now: at(5000)))
    }

    func testReleaseAll() {
        var model = model(release: true, [(0, KeyEvent(.up))])
        model.releaseAll()
        XCTAssertFalse(model.isHeld(.up, now: at(1)))
    }

    /// Read times (ms) of the bytes xterm sent under Xvfb (X11 default autorepeat) while xdotool held
    /// Right from 0 to ~2300 ms and z from ~1217 to ~2000 ms: Right repeats after 660 ms, every
    /// 40 ms, and stops repeating the moment z goes down, though it is still held.
    static let xtermRight: [Double] = [0.0, 659.8, 699.9, 740.2, 780.2, 820.5, 860.6, 900.8, 941.2, 981.1,
                                       1021.3, 1061.4, 1101.7, 1142.1, 1182.2]
    static let xtermZ: [Double] = [1217.6, 1878.8, 1919.4, 1959.7, 2000.0]

    func testRecordedXtermAutorepeatKeepsBothKeysHeld() throws {
        var events: [(Double, Key)] = Self.xtermRight.map { ($0, .right) } + Self.xtermZ.map { ($0, .character("z")) }
        events.sort { $0.0 < $1.0 }
        var model = HoldModel(releaseEvents: false)
        var eventIndex = 0
        for time in stride(from: 0.0, through: 2000.0, by: 1.0) {
            while eventIndex < events.count, events[eventIndex].0 <= time {
                model.handle(KeyEvent(events[eventIndex].1), now: start + .microseconds(Int64(events[eventIndex].0 * 1000)))
                eventIndex += 1
            }
            let now = start + .microseconds(Int64(time * 1000))
            // Each key: a short press, up until its first repeat, then held (Right carried by z).
            XCTAssertEqual(model.isHeld(.right, now: now), time < 66 || time >= 659.8, "Right at \(time) ms")
            let zHeld = (1217.6..<1283.6).contains(time) || time >= 1878.8
            XCTAssertEqual(model.isHeld(.character("z"), now: now), zHeld, "z at \(time) ms")
        }
        // Both keys' first repeats (659.8 and 661.2 ms) and 40 ms intervals are measured.
        let measured = try XCTUnwrap(model.measuredRepeat)
        XCTAssertTrue((Duration.microseconds(659_800)...Duration.microseconds(661_200)).contains(measured.delay), "\(measured)")
        XCTAssertTrue((Duration.milliseconds(39)...Duration.milliseconds(41)).contains(measured.interval), "\(measured)")
        XCTAssertEqual(model.heldKeys(now: at(2150)), [])
    }
}
