import Input
import PhosphorKit
import TestSupport
import XCTest
@testable import Terminal

/// The whole start-up negotiation (synchronized output, background, pixel graphics, kitty
/// keyboard) against what real terminals answered, recorded here by
/// `Tests/Fixtures/terminal-replies/record.sh` (Debian 12's terminals; X11 ones under Xvfb,
/// foot under a headless cage). Each recording is replayed as it was read and again one byte at
/// a time, and must give the same result both ways.
final class RecordedRepliesTests: XCTestCase {
    /// What Phosphor concluded from one recording.
    struct Outcome {
        var negotiation: TerminalNegotiation
        var synchronizedOutput: Bool
        var capabilities: GraphicsCapabilities { negotiation.graphics.capabilities }
    }

    /// Replays `name` through a `TerminalNegotiation` as the app makes it, checks that the
    /// recorder sent exactly what Phosphor sends (queries, the push round, the pop), and fills
    /// in the cell size from the recorded tty pixels the way the app does after the wait.
    static func replay(_ name: String, multiplexer: String? = nil, oneByteAtATime: Bool = false,
                       timeOutFirst: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let recording = try RecordedTerminalReplies(name)
        let terminal = try HeadlessTerminal(columns: recording.columns, rows: recording.rows)
        defer { terminal.restore() }
        let probe = multiplexer == nil ? RecordedTerminalReplies.probeFile : nil
        var negotiation = TerminalNegotiation(graphics: GraphicsDetection(multiplexer: multiplexer, probeFile: probe))
        let queries = negotiation.start()
        XCTAssertEqual(String(decoding: recording.sent.prefix(queries.count), as: UTF8.self), String(decoding: queries, as: UTF8.self),
                       "\(name): the recorder sent Phosphor's queries", file: file, line: line)
        if timeOutFirst { negotiation.timedOut() }
        let mark = terminal.recorded.count
        var decoder = KeyDecoder()
        for chunk in oneByteAtATime ? recording.reply.map { [$0] } : recording.reads {
            for event in decoder.decode(chunk, now: .now) {
                XCTAssertTrue(negotiation.handle(event, terminal: terminal), "\(name): \(event) is an answer", file: file, line: line)
            }
        }
        XCTAssertFalse(decoder.hasPendingBytes, "\(name): every reply decoded whole", file: file, line: line)
        XCTAssertTrue(negotiation.isFinished, "\(name): answered DA1, so nothing is left to wait for", file: file, line: line)
        let written = queries + Array(terminal.output(since: mark)) + negotiation.keyboard.restoreBytes
        XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: recording.sent, as: UTF8.self),
                       "\(name): Phosphor's next steps are the recorder's", file: file, line: line)
        negotiation.useWindowPixels(width: recording.pixelWidth, height: recording.pixelHeight,
                                    columns: recording.columns, rows: recording.rows)
        return Outcome(negotiation: negotiation, synchronizedOutput: terminal.synchronizedOutput)
    }

    /// Replays `name` both ways and checks the outcome against what is expected.
    private func check(_ name: String, multiplexer: String? = nil, synchronizedOutput: Bool, background: TerminalBackground,
                       keyboard: KeyboardProtocolNegotiation.State, graphics: (inout GraphicsCapabilities) -> Void,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        var expected = GraphicsCapabilities()
        graphics(&expected)
        for oneByteAtATime in [false, true] {
            let outcome = try Self.replay(name, multiplexer: multiplexer, oneByteAtATime: oneByteAtATime, file: file, line: line)
            let how = oneByteAtATime ? "one byte at a time" : "as read"
            XCTAssertEqual(outcome.synchronizedOutput, synchronizedOutput, "\(name) \(how): DEC 2026", file: file, line: line)
            XCTAssertEqual(outcome.negotiation.background, background, "\(name) \(how): OSC 11", file: file, line: line)
            XCTAssertEqual(outcome.negotiation.keyboard.state, keyboard, "\(name) \(how): kitty keyboard", file: file, line: line)
            XCTAssertEqual(outcome.capabilities, expected, "\(name) \(how): \(outcome.capabilities.summary)", file: file, line: line)
        }
    }

    /// kitty graphics direct and through our file (it read and deleted it), cell size, keyboard.
    func testKitty0265() throws {
        try check("kitty-0.26.5", synchronizedOutput: true, background: .dark, keyboard: .active(flags: 11)) {
            $0.kitty = true
            $0.kittyFiles = true
            $0.cellSize = CellPixelSize(width: 8, height: 20)
        }
    }

    /// xterm 379 as Debian starts it (a VT420): no pixels; no answer to XTSMGRAPHICS or
    /// `CSI 16 t` (window ops are off by default): the cell comes from the tty's pixels.
    func testXterm379() throws {
        try check("xterm-379", synchronizedOutput: false, background: .light, keyboard: .unsupported) {
            $0.cellSize = CellPixelSize(width: 6, height: 13)
        }
    }

    /// `xterm -ti vt340`: sixel in DA1, still no XTSMGRAPHICS (so the VT340's 16 registers) —
    /// also with `numColorRegisters: 256`, which it does not report either.
    func testXterm379AsVT340() throws {
        for name in ["xterm-379-vt340", "xterm-379-vt340-256"] {
            try check(name, synchronizedOutput: false, background: .light, keyboard: .unsupported) {
                $0.sixel = true
                $0.cellSize = CellPixelSize(width: 6, height: 13)
            }
        }
        XCTAssertEqual(try Self.replay("xterm-379-vt340-256").capabilities.sixelRegisters, 16)
    }

    /// mlterm 3.9.0 answers both XTSMGRAPHICS reads with `CSI ? 1 ; 3 ; 0 S` (item 1, "failure",
    /// even for item 2): no registers or geometry reported (so 256, not a VT340's 16), sixel
    /// from DA1, the cell from `CSI 16 t`; no DEC 2026, no kitty keyboard.
    func testMlterm390() throws {
        try check("mlterm-3.9.0", synchronizedOutput: false, background: .light, keyboard: .unsupported) {
            $0.sixel = true
            $0.colorRegistersRefused = true
            $0.cellSize = CellPixelSize(width: 9, height: 22)
        }
        XCTAssertEqual(try Self.replay("mlterm-3.9.0").capabilities.sixelRegisters, 256)
    }

    /// Konsole 22.12.3: kitty graphics direct but not through files (`ENOTSUPPORTED:`), sixel
    /// with 256 registers up to 16384x16384; it answers neither DECRQM nor `CSI ? u`.
    func testKonsole22123() throws {
        try check("konsole-22.12.3", synchronizedOutput: false, background: .dark, keyboard: .unsupported) {
            $0.kitty = true
            $0.sixel = true
            $0.colorRegisters = 256
            $0.sixelMaximum = (16384, 16384)
            $0.cellSize = CellPixelSize(width: 8, height: 18)
        }
    }

    /// foot 1.13.1: sixel with 1024 registers, the window's size as the geometry, no kitty
    /// graphics, the kitty keyboard.
    func testFoot1131() throws {
        try check("foot-1.13.1", synchronizedOutput: true, background: .dark, keyboard: .active(flags: 11)) {
            $0.sixel = true
            $0.colorRegisters = 1024
            $0.sixelMaximum = (1272, 688)
            $0.cellSize = CellPixelSize(width: 6, height: 16)
        }
    }

    /// tmux 3.3a answers DA1 itself at once (`CSI ? 1 ; 2 c`) and nothing else of its own (no
    /// DECRQM, OSC 11, `CSI 16 t` or `CSI ? u`: the cell comes from the tty's pixels). With
    /// `allow-passthrough on` inside kitty, kitty's OK arrives after that DA1 and still counts.
    func testTmux33aInKittyWithAndWithoutPassthrough() throws {
        try check("tmux-3.3a-in-kitty-0.26.5-passthrough-on", multiplexer: "tmux", synchronizedOutput: false,
                  background: .unknown, keyboard: .unsupported) {
            $0.kitty = true
            $0.insideTmux = true
            $0.cellSize = CellPixelSize(width: 8, height: 20)
        }
        try check("tmux-3.3a-in-kitty-0.26.5-passthrough-off", multiplexer: "tmux", synchronizedOutput: false,
                  background: .unknown, keyboard: .unsupported) {
            $0.insideTmux = true
            $0.blockedReason = GraphicsDetection.tmuxWithoutPassthrough
            $0.cellSize = CellPixelSize(width: 8, height: 20)
        }
    }

    /// Inside xterm (no kitty graphics outside) passthrough changes nothing, and the sixel of
    /// `xterm -ti vt340` is not used: tmux's DA1 is its own.
    func testTmux33aInXtermAsVT340() throws {
        for pass in ["on", "off"] {
            try check("tmux-3.3a-in-xterm-379-vt340-passthrough-\(pass)", multiplexer: "tmux", synchronizedOutput: false,
                      background: .unknown, keyboard: .unsupported) {
                $0.insideTmux = true
                $0.blockedReason = GraphicsDetection.tmuxWithoutPassthrough
                $0.cellSize = CellPixelSize(width: 6, height: 13)
            }
        }
    }

    /// GNU screen 4.9.0 answers DA1 itself first and passes xterm's OSC 11 answer on after it.
    func testGNUScreen490InXterm() throws {
        try check("screen-4.9.0-in-xterm-379", multiplexer: "GNU screen", synchronizedOutput: false,
                  background: .light, keyboard: .unsupported) {
            $0.blockedReason = "inside GNU screen: half blocks (it passes no pixel graphics through)"
            $0.cellSize = CellPixelSize(width: 6, height: 13)
        }
    }

    /// A terminal busy at start (kitty under Xvfb answered after 2 s, well past the app's 400 ms)
    /// answers after the wait gave up: its answers still count, DA1's sixel too.
    func testAnswersAfterTheDeadlineStillCount() throws {
        let foot = try Self.replay("foot-1.13.1", timeOutFirst: true)
        XCTAssertTrue(foot.capabilities.sixel, "a late DA1 still says sixel")
        XCTAssertEqual(foot.capabilities.colorRegisters, 1024)
        XCTAssertEqual(foot.negotiation.keyboard.state, .active(flags: 11))
        let kitty = try Self.replay("kitty-0.26.5", timeOutFirst: true)
        XCTAssertTrue(kitty.capabilities.kitty)
        XCTAssertTrue(kitty.capabilities.kittyFiles)
        XCTAssertFalse(kitty.capabilities.sixel)
    }

    /// A terminal that never answers: the wait ends at the deadline with nothing found.
    func testNoReplyAtAll() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation(graphics: GraphicsDetection(multiplexer: nil, probeFile: nil))
        _ = negotiation.start()
        XCTAssertFalse(negotiation.isFinished)
        negotiation.timedOut()
        XCTAssertTrue(negotiation.isFinished)
        XCTAssertEqual(negotiation.graphics.capabilities, GraphicsCapabilities())
        XCTAssertEqual(negotiation.keyboard.state, .unsupported)
        XCTAssertEqual(negotiation.background, .unknown)
        XCTAssertFalse(terminal.synchronizedOutput)
        XCTAssertEqual(negotiation.keyboard.restoreBytes, [], "nothing pushed, nothing to pop")
    }

    /// The palette exchange as real terminals answered it (`record.py --mode palette`): the
    /// candidates' queries, the probe once entry 87's own colour came, and 87 given back once
    /// the probe's answer came, exactly as the negotiation writes them. Each recording is
    /// replayed as it was read and one byte at a time.
    private func replayPalette(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> TerminalPalette {
        let recording = try RecordedTerminalReplies(name)
        var outcomes: [TerminalPalette] = []
        for oneByteAtATime in [false, true] {
            let terminal = try HeadlessTerminal(columns: recording.columns, rows: recording.rows)
            defer { terminal.restore() }
            var negotiation = TerminalNegotiation(asksPalette: true)
            _ = negotiation.start()
            let queries = TerminalPalette.query
            XCTAssertEqual(Array(recording.sent.prefix(queries.count)), queries, "\(name): the recorder asked as Phosphor does", file: file, line: line)
            let mark = terminal.recorded.count
            var decoder = KeyDecoder()
            for chunk in oneByteAtATime ? recording.reply.map { [$0] } : recording.reads {
                for event in decoder.decode(chunk, now: .now) {
                    XCTAssertTrue(negotiation.handle(event, terminal: terminal), "\(name): \(event) is an answer", file: file, line: line)
                }
            }
            XCTAssertEqual(String(decoding: terminal.output(since: mark), as: UTF8.self),
                           String(decoding: recording.sent.dropFirst(queries.count), as: UTF8.self),
                           "\(name): the probe and the give-back, as the recorder sent them", file: file, line: line)
            outcomes.append(terminal.palette)
        }
        XCTAssertEqual(outcomes[0], outcomes[1], "\(name): the same whole and byte by byte", file: file, line: line)
        return outcomes[0]
    }

    /// xterm, VTE (xfce4-terminal), kitty, mlterm and foot show the probe's colour: every
    /// candidate entry may carry the picture's colours.
    func testPalettesOfXtermVTEKittyMltermAndFootAreRedefinable() throws {
        for name in ["xterm-379-palette", "xfce4-terminal-1.0.4-palette", "kitty-0.26.5-palette",
                     "mlterm-3.9.0-palette", "foot-1.13.1-palette"] {
            let palette = try replayPalette(name)
            XCTAssertEqual(palette.redefinitionsTake, true, name)
            XCTAssertEqual(palette.redefinableEntries.map(Int.init), TerminalPalette.candidates, name)
        }
    }

    /// Konsole answers every query but keeps its colour: the picture must not draw by entry.
    func testPaletteOfKonsole22123IsAnsweredButNotRedefinable() throws {
        let palette = try replayPalette("konsole-22.12.3-palette")
        XCTAssertEqual(palette.reported.count, TerminalPalette.candidates.count)
        XCTAssertEqual(palette.redefinitionsTake, false)
        XCTAssertEqual(palette.redefinableEntries, [])
        XCTAssertEqual(palette.restoreBytes, [])
    }
}
