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

    func testLegacyTapHoldsForInitialDelay() {
        let model = model(release: false, [(0, KeyEvent(.right))])
        XCTAssertTrue(model.isHeld(.right, now: at(0)))
        XCTAssertTrue(model.isHeld(.right, now: at(699)))
        XCTAssertFalse(model.isHeld(.right, now: at(700)))
    }

    func testLegacyLongHoldFollowsAutorepeat() {
        // Press at 0, first repeat at 500 ms, then every 33 ms until 1490; released after that.
        var events: [(Int, KeyEvent)] = [(0, KeyEvent(.up))]
        for time in stride(from: 500, through: 1490, by: 33) { events.append((time, KeyEvent(.up))) }
        let model = model(release: false, events)
        let lastRepeat = events.last!.0
        for time in stride(from: 0, to: lastRepeat + 100, by: 10) {
            XCTAssertTrue(model.isHeld(.up, now: at(time)), "held at \(time)")
        }
        XCTAssertFalse(model.isHeld(.up, now: at(lastRepeat + 100)))
    }

    func testLegacyTwoKeysAreIndependentAndTheOlderIsCarried() {
        // Right repeats, then A is pressed: X11 stops Right's repeats, but Right stays held as long as A.
        var events: [(Int, KeyEvent)] = [(0, KeyEvent(.right))]
        for time in stride(from: 500, through: 800, by: 33) { events.append((time, KeyEvent(.right))) }
        events.append((820, KeyEvent(.character("x"))))
        for time in stride(from: 1320, through: 1600, by: 33) { events.append((time, KeyEvent(.character("x")))) }
        let model = model(release: false, events)
        XCTAssertEqual(model.heldKeys(now: at(1000)), [.right, .character("x")])
        XCTAssertEqual(model.heldKeys(now: at(1600)), [.right, .character("x")])
        XCTAssertEqual(model.heldKeys(now: at(1700)), [])

        var independent = HoldModel(releaseEvents: false, timing: HoldTiming(carryHeldKeys: false))
        for (time, event) in events { independent.handle(event, now: at(time)) }
        XCTAssertEqual(independent.heldKeys(now: at(1000)), [.character("x")])
    }

    func testLegacyDiagonalPressedTogether() {
        let model = model(release: false, [(0, KeyEvent(.up)), (5, KeyEvent(.left))])
        XCTAssertEqual(model.heldKeys(now: at(100)), [.up, .left])
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

    func testRecordedXtermAutorepeatKeepsBothKeysHeld() {
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
            XCTAssertTrue(model.isHeld(.right, now: now), "Right dropped at \(time) ms")
            if time >= 1217.6 { XCTAssertTrue(model.isHeld(.character("z"), now: now), "z dropped at \(time) ms") }
        }
        XCTAssertEqual(model.heldKeys(now: at(2150)), [])
    }
}
