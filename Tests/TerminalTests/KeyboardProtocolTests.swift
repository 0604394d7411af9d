import Input
import XCTest
@testable import Terminal

final class KeyboardProtocolTests: XCTestCase {
    func testFlagsThatDoNotTakeAreRejectedAndStillPopped() {
        var negotiation = KeyboardProtocolNegotiation()
        _ = negotiation.start()
        XCTAssertEqual(negotiation.handle(.keyboardFlags(0)), [])
        XCTAssertEqual(negotiation.handle(.deviceAttributes([62])), Array("\u{1B}[>11u\u{1B}[?u\u{1B}[c".utf8))
        XCTAssertFalse(negotiation.isFinished)
        // The terminal only kept flag 1.
        _ = negotiation.handle(.keyboardFlags(1))
        _ = negotiation.handle(.deviceAttributes([62]))
        XCTAssertEqual(negotiation.state, .rejected(flags: 1))
        XCTAssertFalse(negotiation.releaseEvents)
        XCTAssertEqual(negotiation.restoreBytes, Array("\u{1B}[<u".utf8))
    }

    func testKeysDuringDetectionAreIgnoredAndSilenceTimesOut() {
        var negotiation = KeyboardProtocolNegotiation()
        _ = negotiation.start()
        XCTAssertEqual(negotiation.handle(.key(KeyEvent(.character("a"), modifiers: [], kind: .press))), [])
        XCTAssertEqual(negotiation.state, .detecting(flags: nil))
        negotiation.timedOut()
        XCTAssertEqual(negotiation.state, .unsupported)
        XCTAssertTrue(negotiation.isFinished)
    }

    func testProtocolBytes() {
        XCTAssertEqual(KeyboardProtocol.gameFlags, 11)
        XCTAssertEqual(String(decoding: KeyboardProtocol.pushGameFlags, as: UTF8.self), "\u{1B}[>11u")
        XCTAssertEqual(String(decoding: KeyboardProtocol.popFlags, as: UTF8.self), "\u{1B}[<u")
    }

    func testSynchronizedOutputIsUsedOnlyWhenTheTerminalKnowsTheMode() {
        XCTAssertEqual((0...4).map(SynchronizedOutput.isSupported(setting:)), [false, true, true, true, false])
    }
}
