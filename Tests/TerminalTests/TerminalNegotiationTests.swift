import Input
import XCTest
@testable import Terminal

/// The start-up questions against a headless terminal: what is written back, and what the
/// terminal is told it must undo on exit.
final class TerminalNegotiationTests: XCTestCase {
    private func decode(_ text: String) -> [InputEvent] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(text.utf8), now: .now)
    }

    func testPartlyGrantedFlagsAreStillPoppedOnExit() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation()
        _ = negotiation.start()
        for event in decode("\u{1B}[?0u\u{1B}[?62c") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertTrue(terminal.keyboardFlagsPushed, "pushed while verifying")
        // The terminal kept only flag 1 of the three: rejected, but the push must be undone.
        for event in decode("\u{1B}[?1u\u{1B}[?62c") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertEqual(negotiation.keyboard.state, .rejected(flags: 1))
        XCTAssertFalse(negotiation.releaseEvents)
        XCTAssertTrue(terminal.keyboardFlagsPushed, "a rejected push is popped on exit too")
    }

    func testGrantedFlagsTurnReleaseEventsOnAndATerminalWithoutTheProtocolGetsNoPush() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var kitty = TerminalNegotiation()
        _ = kitty.start()
        for event in decode("\u{1B}[?0u\u{1B}[?62c\u{1B}[?11u\u{1B}[?62c") { _ = kitty.handle(event, terminal: terminal) }
        XCTAssertTrue(kitty.releaseEvents)
        XCTAssertTrue(terminal.keyboardFlagsPushed)
        XCTAssertTrue(terminal.recorded.containsSequence(Array("\u{1B}[>11u".utf8)))

        let plain = try HeadlessTerminal()
        defer { plain.restore() }
        var xterm = TerminalNegotiation()
        _ = xterm.start()
        for event in decode("\u{1B}[?62;22c") { _ = xterm.handle(event, terminal: plain) }
        XCTAssertTrue(xterm.isFinished)
        XCTAssertFalse(plain.keyboardFlagsPushed)
        XCTAssertFalse(plain.recorded.containsSequence(Array("\u{1B}[>11u".utf8)))
    }

    func testModeReportSwitchesSynchronizedOutput() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation()
        _ = negotiation.start()
        for event in decode("\u{1B}[?2026;2$y") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertTrue(terminal.synchronizedOutput)
        XCTAssertFalse(negotiation.handle(.key(KeyEvent(.character("a"), modifiers: [], kind: .press)), terminal: terminal))
    }
}

private extension Array where Element == UInt8 {
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<$0 + needle.count]) == needle }
    }
}
