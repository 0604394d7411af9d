import Foundation
import Input
import PhosphorKit
import XCTest

/// Found by the hostile-name test: in a legacy terminal a lone Escape often did not open the pause
/// menu. The app loop decodes on every step (every ~16 ms while a game runs), mostly with no new
/// bytes, and each call restarted the 50 ms Escape timeout, so the ESC waited for the next byte.
final class EscapeKeyTimingTests: XCTestCase {
    func testEmptyReadsDoNotPostponeTheEscapeKey() {
        var decoder = KeyDecoder()
        let start = ContinuousClock.now
        var events = decoder.decode([0x1B], now: start)
        for step in 1...10 {  // the app loop: a read with nothing new every 16 ms
            events += decoder.decode([UInt8](), now: start + .milliseconds(16 * step))
        }
        XCTAssertEqual(events.count, 1, "the Escape key came out within 160 ms: \(events)")
        XCTAssertFalse(decoder.hasPendingBytes)
    }

    func testDecoderGivesEscapeAfterF12() {
        var decoder = KeyDecoder()
        let start = ContinuousClock.now
        var events = decoder.decode(Array("\u{1B}[24~".utf8), now: start)
        events += decoder.flush(now: start)
        let later = start + .seconds(1)
        events += decoder.decode([0x1B], now: later)
        events += decoder.flush(now: later)
        events += decoder.flush(now: later + .milliseconds(100))
        print(events)
        XCTAssertTrue(events.contains { if case .key(let key) = $0 { key.key == .escape } else { false } }, "\(events)")
    }

    func testPlayerInputOpensTheMenuOnEscapeAfterF12() {
        let input = PlayerInput(system: .gbc, keyMap: KeyMap.defaults(for: .gbc), releaseEvents: false)
        let start = ContinuousClock.now
        var decoder = KeyDecoder()
        var actions: [InputAction] = []
        for event in decoder.decode(Array("\u{1B}[24~".utf8), now: start) { actions += input.handle(event, now: start) }
        let later = start + .milliseconds(1500)
        _ = decoder.decode([0x1B], now: later)
        for event in decoder.flush(now: later + .milliseconds(100)) { actions += input.handle(event, now: later + .milliseconds(100)) }
        print(actions)
        XCTAssertEqual(actions, [.screenshot, .pauseMenu])
    }
}
