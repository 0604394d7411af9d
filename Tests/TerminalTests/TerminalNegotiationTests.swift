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

    /// kitty busy at start-up answers after the app stopped waiting: the handshake goes on from
    /// where it was, the flags are pushed, and release events come on.
    func testLateKittyAnswerStillSwitchesReleaseEventsOn() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation()
        _ = negotiation.start()
        negotiation.timedOut()
        XCTAssertFalse(negotiation.releaseEvents)
        for event in decode("\u{1B}[?0u\u{1B}[?62c") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertTrue(terminal.recorded.containsSequence(Array("\u{1B}[>11u".utf8)), "pushed after the late answer")
        XCTAssertTrue(terminal.keyboardFlagsPushed)
        for event in decode("\u{1B}[?11u\u{1B}[?62c") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertTrue(negotiation.releaseEvents)
    }

    /// The verification's answer late: still active. A late DA1 without flags: still none.
    func testLateVerificationCountsAndALateDA1AloneChangesNothing() throws {
        var kitty = KeyboardProtocolNegotiation()
        _ = kitty.start()
        _ = kitty.handle(.keyboardFlags(0))
        XCTAssertFalse(kitty.handle(.deviceAttributes([62])).isEmpty)
        kitty.timedOut()
        XCTAssertEqual(kitty.state, .rejected(flags: nil))
        _ = kitty.handle(.keyboardFlags(11))
        _ = kitty.handle(.deviceAttributes([62]))
        XCTAssertEqual(kitty.state, .active(flags: 11))

        var xterm = KeyboardProtocolNegotiation()
        _ = xterm.start()
        xterm.timedOut()
        XCTAssertEqual(xterm.handle(.deviceAttributes([62])), [])
        XCTAssertEqual(xterm.state, .unsupported)
        XCTAssertEqual(xterm.restoreBytes, [])
    }

    func testBackgroundQueryAndReply() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation()
        let query = negotiation.start()
        XCTAssertTrue(query.containsSequence(Array("\u{1B}]11;?\u{1B}\\".utf8)))
        // Before DA1 (whose reply ends the detection), so its answer comes first.
        let text = String(decoding: query, as: UTF8.self)
        XCTAssertLessThan(text.range(of: "]11;?")!.lowerBound, text.range(of: "[c")!.lowerBound)
        XCTAssertEqual(negotiation.background, .unknown)
        for event in decode("\u{1B}]11;rgb:ffff/ffff/dddd\u{1B}\\") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertEqual(negotiation.background, .light)
        for event in decode("\u{1B}]11;rgb:1e1e/1e1e/2e2e\u{07}") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertEqual(negotiation.background, .dark)

        var console = TerminalNegotiation(asksBackground: false)
        XCTAssertFalse(console.start().containsSequence(Array("]11;".utf8)))
    }

    func testPaletteQueriesAndRepliesGiveTheEntriesAndTheirRestoreBytes() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation(asksPalette: true)
        let text = String(decoding: negotiation.start(), as: UTF8.self)
        // One query per candidate, before DA1 (whose reply ends the detection).
        XCTAssertEqual(text.components(separatedBy: "\u{1B}]4;").count - 1, TerminalPalette.candidates.count)
        XCTAssertTrue(text.contains("\u{1B}]4;16;?\u{1B}\\") && text.contains("\u{1B}]4;87;?\u{1B}\\"))
        XCTAssertFalse(text.contains("]4;25;") || text.contains("]4;88;"), "entries the menus use are never asked for")
        XCTAssertLessThan(text.range(of: "]4;87;?")!.lowerBound, text.range(of: "[c")!.lowerBound)
        XCTAssertFalse(text.contains("rgb:"), "no entry is redefined before its own colour is known")
        // Fewer answers than the minimum: nothing to redefine yet.
        var replies = ""
        for index in TerminalPalette.candidates.prefix(TerminalPalette.minimumEntries - 1) { replies += "\u{1B}]4;\(index);rgb:0101/0202/0303\u{1B}\\" }
        for event in decode(replies) { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertEqual(terminal.palette.redefinableEntries, [])
        XCTAssertEqual(terminal.palette.restoreBytes, [])
        // Every candidate answered (one with two hex digits, as some terminals send), and one
        // entry nobody asked about: the latter is ignored.
        replies = "\u{1B}]4;200;rgb:ffff/ffff/ffff\u{1B}\\"
        let beforeReplies = terminal.recorded.count
        for index in TerminalPalette.candidates.dropFirst(TerminalPalette.minimumEntries - 1) {
            replies += index == 40 ? "\u{1B}]4;40;rgb:00/d7/00\u{07}" : "\u{1B}]4;\(index);rgb:0101/0202/0303\u{1B}\\"
        }
        for event in decode(replies) { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        // Entry 87's own colour came: it is redefined and asked again (the probe), and until
        // that answer comes only it is given back at exit, and the negotiation is not finished.
        XCTAssertEqual(String(decoding: terminal.output(since: beforeReplies), as: UTF8.self),
                       "\u{1B}]4;87;rgb:1212/5656/9a9a\u{1B}\\\u{1B}]4;87;?\u{1B}\\")
        for event in decode("\u{1B}[?62c") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertFalse(negotiation.isFinished, "DA1 came, the probe's answer not yet")
        XCTAssertEqual(terminal.palette.redefinableEntries, [])
        XCTAssertEqual(String(decoding: terminal.palette.restoreBytes, as: UTF8.self), "\u{1B}]4;87;rgb:0101/0202/0303\u{1B}\\")
        let beforeProbe = terminal.recorded.count
        for event in decode("\u{1B}]4;87;rgb:12/56/9a\u{07}") { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        XCTAssertTrue(negotiation.isFinished)
        XCTAssertEqual(String(decoding: terminal.output(since: beforeProbe), as: UTF8.self), "\u{1B}]4;87;rgb:0101/0202/0303\u{1B}\\",
                       "the probe entry gets its own colour back at once")
        XCTAssertEqual(terminal.palette.redefinableEntries.map(Int.init), TerminalPalette.candidates)
        let restore = String(decoding: terminal.palette.restoreBytes, as: UTF8.self)
        XCTAssertTrue(restore.hasPrefix("\u{1B}]4;16;rgb:0101/0202/0303\u{1B}\\"), restore.debugDescription)
        XCTAssertTrue(restore.contains("\u{1B}]4;40;rgb:0000/d7d7/0000\u{1B}\\"), restore.debugDescription)
        XCTAssertFalse(restore.contains("]4;200;"))

        // Not asked: inside a multiplexer or on the console (the app passes false), or without OSC at all.
        var plain = TerminalNegotiation()
        XCTAssertFalse(String(decoding: plain.start(), as: UTF8.self).contains("]4;"))
        var console = TerminalNegotiation(asksBackground: false, asksPalette: true)
        XCTAssertFalse(String(decoding: console.start(), as: UTF8.self).contains("]4;"))
    }

    func testBackgroundClassificationByLuminance() {
        XCTAssertEqual(TerminalBackground(red: 1, green: 1, blue: 1), .light)
        XCTAssertEqual(TerminalBackground(red: 0, green: 0, blue: 0), .dark)
        XCTAssertEqual(TerminalBackground(red: 0.99, green: 0.96, blue: 0.89), .light)   // solarized light
        XCTAssertEqual(TerminalBackground(red: 0, green: 0.17, blue: 0.21), .dark)       // solarized dark
        XCTAssertEqual(TerminalBackground.contrast(1, 0), 21, accuracy: 0.001)
        XCTAssertEqual(TerminalBackground.relativeLuminance(red: 1, green: 1, blue: 1), 1, accuracy: 0.0001)
    }

    func testQuirksOfScreenTmuxAndTheConsole() {
        let screen = TerminalQuirks(terminalName: "screen", environment: ["STY": "1234.pts-0.host"])
        XCTAssertTrue(screen.isGNUScreen)
        XCTAssertFalse(screen.wantsMouse)
        XCTAssertEqual(screen.colourAdvice(paletteSize: 8), "GNU screen shows 8 colours: set `term screen-256color` in ~/.screenrc")
        XCTAssertNil(screen.colourAdvice(paletteSize: 256))
        let tmux = TerminalQuirks(terminalName: "screen", environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        XCTAssertFalse(tmux.isGNUScreen)
        XCTAssertTrue(tmux.wantsMouse)
        XCTAssertNotNil(tmux.colourAdvice(paletteSize: 8))
        XCTAssertFalse(TerminalQuirks(terminalName: "linux", environment: [:]).mayAskBackground)
        XCTAssertNil(TerminalQuirks(terminalName: "xterm", environment: [:]).colourAdvice(paletteSize: 8))
        XCTAssertEqual(TerminalQuirks.cursesTerminalType(environment: ["TERM": "xterm", "COLORTERM": "truecolor"]), "xterm-256color")
        XCTAssertNil(TerminalQuirks.cursesTerminalType(environment: ["TERM": "xterm"]))
        XCTAssertNil(TerminalQuirks.cursesTerminalType(environment: ["TERM": "screen", "COLORTERM": "truecolor"]))
    }

    /// xterm's `█` leaves the cell's edges open (Xft fonts): spaces for one-colour cells there,
    /// also through tmux and GNU screen started from an xterm (they repaint our cells as they are);
    /// not in kitty or Ghostty started from an xterm's shell, nor anywhere without XTERM_VERSION.
    func testXtermIsKnownByItsVersionVariableAlsoThroughAMultiplexer() {
        let version = ["XTERM_VERSION": "XTerm(379)"]
        XCTAssertFalse(TerminalQuirks(terminalName: "xterm", environment: version).fullBlockFillsCell)
        XCTAssertFalse(TerminalQuirks(terminalName: "xterm-256color", environment: version).fullBlockFillsCell)
        XCTAssertFalse(TerminalQuirks(terminalName: "tmux-256color", environment: version.merging(["TMUX": "/tmp/tmux-0/default,1,0"]) { a, _ in a })
            .fullBlockFillsCell)
        XCTAssertFalse(TerminalQuirks(terminalName: "screen", environment: version.merging(["STY": "1234.pts-0.host"]) { a, _ in a })
            .fullBlockFillsCell)
        XCTAssertTrue(TerminalQuirks(terminalName: "xterm-kitty", environment: version).fullBlockFillsCell)
        XCTAssertTrue(TerminalQuirks(terminalName: "xterm-ghostty", environment: version).fullBlockFillsCell)
        XCTAssertTrue(TerminalQuirks(terminalName: "foot", environment: version).fullBlockFillsCell)
        XCTAssertTrue(TerminalQuirks(terminalName: "xterm-256color", environment: ["XTERM_VERSION": ""]).fullBlockFillsCell)
        XCTAssertTrue(TerminalQuirks(terminalName: "xterm-256color", environment: [:]).fullBlockFillsCell)
        XCTAssertTrue(TerminalQuirks(terminalName: "tmux-256color", environment: ["TMUX": "/tmp/tmux-0/default,1,0"]).fullBlockFillsCell)
    }

    /// xterm copies a shifted row's pixels and waits for the X server (DCH, ICH): only there do
    /// shifts have to right nearly the whole row.
    func testXtermsShiftedRowsWaitForTheXServerAndNoOtherTerminals() {
        let version = ["XTERM_VERSION": "XTerm(398)"]
        XCTAssertTrue(TerminalQuirks(terminalName: "xterm", environment: version).shiftedRowsWaitForTheServer)
        XCTAssertTrue(TerminalQuirks(terminalName: "xterm-256color", environment: version).shiftedRowsWaitForTheServer)
        XCTAssertFalse(TerminalQuirks(terminalName: "xterm-kitty", environment: version).shiftedRowsWaitForTheServer)
        XCTAssertFalse(TerminalQuirks(terminalName: "foot", environment: version).shiftedRowsWaitForTheServer)
        XCTAssertFalse(TerminalQuirks(terminalName: "xterm-256color", environment: [:]).shiftedRowsWaitForTheServer)
    }
}

private extension Array where Element == UInt8 {
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<$0 + needle.count]) == needle }
    }
}
