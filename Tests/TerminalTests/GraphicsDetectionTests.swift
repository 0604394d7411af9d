import Input
import PhosphorKit
import XCTest
@testable import Terminal

/// The pixel-graphics detection against what terminals answer to Phosphor's start-up queries
/// (the graphics queries, then `CSI ? u` and DA1). kitty 0.26.5 and xterm 379 were recorded
/// here under Xvfb (a script sending exactly these queries); foot, mlterm and Konsole are
/// transcribed from their documented replies.
final class GraphicsDetectionTests: XCTestCase {
    private func detect(_ replies: String, multiplexer: String? = nil, probeFile: String? = "/dev/shm/p-tty-graphics-protocol") -> GraphicsDetection {
        var detection = GraphicsDetection(multiplexer: multiplexer, probeFile: probeFile)
        _ = detection.start()
        var decoder = KeyDecoder()
        for event in decoder.decode(Array(replies.utf8), now: .now) { _ = detection.handle(event) }
        return detection
    }

    func testQueriesGoOutInOrderAndAskForTheFileByItsBase64Path() {
        var detection = GraphicsDetection(multiplexer: nil, probeFile: "/tmp/a-tty-graphics-protocol")
        let text = String(decoding: detection.start(), as: UTF8.self)
        XCTAssertEqual(text, "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
                       + "\u{1B}_Gi=32,s=1,v=1,a=q,t=t,f=24;L3RtcC9hLXR0eS1ncmFwaGljcy1wcm90b2NvbA==\u{1B}\\"
                       + "\u{1B}[?1;1S\u{1B}[?2;1S\u{1B}[16t")
        XCTAssertEqual(detection.state, .detecting)
    }

    /// Recorded: kitty 0.26.5 (it read and deleted the probe file).
    func testKitty026() {
        let detection = detect("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[6;20;8t\u{1B}[?0u\u{1B}[?62;c")
        XCTAssertTrue(detection.isFinished)
        XCTAssertTrue(detection.capabilities.kitty)
        XCTAssertTrue(detection.capabilities.kittyFiles)
        XCTAssertFalse(detection.capabilities.sixel)
        XCTAssertEqual(detection.capabilities.cellSize, CellPixelSize(width: 8, height: 20))
    }

    /// kitty over SSH: the file is on another machine.
    func testKittyRemoteCannotReadOurFiles() {
        let detection = detect("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;EBADF:Failed to open file\u{1B}\\\u{1B}[6;20;8t\u{1B}[?0u\u{1B}[?62;c")
        XCTAssertTrue(detection.capabilities.kitty)
        XCTAssertFalse(detection.capabilities.kittyFiles)
    }

    /// Recorded: xterm 379 as Debian starts it (a VT420): no pixels, and no answer to
    /// XTSMGRAPHICS or `CSI 16 t` (window ops are disallowed by default).
    func testXterm379Default() {
        let detection = detect("\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c")
        XCTAssertTrue(detection.isFinished)
        XCTAssertEqual(detection.capabilities, GraphicsCapabilities())
    }

    /// Recorded: xterm 379 -ti vt340: sixel in DA1, still no XTSMGRAPHICS or cell size; the
    /// tty's pixel size (484x316 for 80x24 with its 6x13 font) gives the cell.
    func testXterm379AsVT340() {
        var detection = detect("\u{1B}[?63;1;2;4;6;9;15;16;22;28c")
        XCTAssertTrue(detection.capabilities.sixel)
        XCTAssertNil(detection.capabilities.colorRegisters)
        XCTAssertEqual(detection.capabilities.sixelRegisters, 16, "a VT340's registers")
        XCTAssertFalse(detection.capabilities.sixelUsable, "no cell size yet")
        detection.useWindowPixels(width: 484, height: 316, columns: 80, rows: 24)
        XCTAssertEqual(detection.capabilities.cellSize, CellPixelSize(width: 6, height: 13))
        XCTAssertTrue(detection.capabilities.sixelUsable)
    }

    /// Transcribed: foot 1.13 (sixel, 1024 registers, kitty keyboard, no kitty graphics).
    func testFoot() {
        let detection = detect("\u{1B}[?1;0;1024S\u{1B}[?2;0;10000;10000S\u{1B}[6;17;8t\u{1B}[?0u\u{1B}[?62;4;22c")
        XCTAssertFalse(detection.capabilities.kitty)
        XCTAssertTrue(detection.capabilities.sixel)
        XCTAssertEqual(detection.capabilities.colorRegisters, 1024)
        XCTAssertEqual(detection.capabilities.sixelMaximum?.width, 10000)
        XCTAssertEqual(detection.capabilities.cellSize, CellPixelSize(width: 8, height: 17))
    }

    /// Transcribed: mlterm 3.9 (sixel, 256 registers).
    func testMlterm() {
        let detection = detect("\u{1B}[?1;0;256S\u{1B}[6;16;7t\u{1B}[?63;1;2;3;4;7;29c")
        XCTAssertTrue(detection.capabilities.sixel)
        XCTAssertEqual(detection.capabilities.sixelRegisters, 256)
        XCTAssertTrue(detection.capabilities.sixelUsable)
    }

    /// Transcribed: Konsole 22.12 (kitty graphics and sixel; kitty wins in `VideoOutput`).
    func testKonsole() {
        let detection = detect("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[?1;0;256S\u{1B}[6;18;9t\u{1B}[?62;4;22c")
        XCTAssertTrue(detection.capabilities.kitty)
        XCTAssertTrue(detection.capabilities.sixel)
    }

    /// Inside tmux the kitty queries go out wrapped in its passthrough (every ESC doubled), and
    /// the cell size is asked of tmux. Replies recorded from tmux 3.3a in a pty that answers like
    /// kitty: with `allow-passthrough on` tmux answers DA1 itself at once (`CSI ? 1;2 c`) and the
    /// outer terminal's kitty answer arrives after it; with it off, only tmux's DA1 arrives.
    func testTmuxWithPassthroughFindsKittyThroughItAfterItsOwnDA1() {
        var detection = GraphicsDetection(multiplexer: "tmux", probeFile: nil)
        let queries = detection.start()
        let wrappedQuery = "\u{1B}Ptmux;\u{1B}\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\u{1B}\\\u{1B}\\"
        XCTAssertEqual(String(decoding: queries, as: UTF8.self), "\u{1B}[16t")
        XCTAssertEqual(detection.takeFollowUp(), [], "not before tmux's DA1 reply")
        var decoder = KeyDecoder()
        for event in decoder.decode(Array("\u{1B}[?1;2c".utf8), now: .now) { _ = detection.handle(event) }
        XCTAssertTrue(detection.isFinished)
        XCTAssertEqual(String(decoding: detection.takeFollowUp(), as: UTF8.self), wrappedQuery, "after it, once")
        XCTAssertEqual(detection.takeFollowUp(), [])
        XCTAssertEqual(detection.capabilities.blockedReason, GraphicsDetection.tmuxWithoutPassthrough)
        for event in decoder.decode(Array("\u{1B}[6;20;10t\u{1B}_Gi=31;OK\u{1B}\\".utf8), now: .now) {
            XCTAssertTrue(detection.handle(event), "a graphics answer, consumed")
        }
        XCTAssertTrue(detection.capabilities.kitty)
        XCTAssertTrue(detection.capabilities.insideTmux)
        XCTAssertNil(detection.capabilities.blockedReason)
        XCTAssertFalse(detection.capabilities.sixel, "tmux's DA1 says nothing of the outer terminal")
    }

    func testTmuxWithoutPassthroughStaysOnHalfBlocksAndSaysWhy() {
        let detection = detect("\u{1B}[?1;2c", multiplexer: "tmux")
        XCTAssertTrue(detection.isFinished)
        XCTAssertFalse(detection.capabilities.kitty)
        XCTAssertFalse(detection.capabilities.sixel)
        XCTAssertEqual(detection.capabilities.blockedReason, GraphicsDetection.tmuxWithoutPassthrough)
    }

    /// GNU screen passes no graphics through: nothing is asked, half blocks, the reason said once.
    func testGNUScreenAsksNothing() {
        var detection = GraphicsDetection(multiplexer: "GNU screen", probeFile: nil)
        XCTAssertEqual(detection.start(), [])
        XCTAssertTrue(detection.isFinished)
        XCTAssertEqual(detection.capabilities.blockedReason, "inside GNU screen: half blocks (it passes no pixel graphics through)")
    }

    func testPassthroughWrapsEachEscapeStringWithTheCursorMoveBeforeIt() {
        let bytes = Array("\u{1B}[3;4H\u{1B}_Ga=T,m=1;AAAA\u{1B}\\\u{1B}_Gm=0;BBBB\u{1B}\\".utf8)
        let wrapped = String(decoding: TmuxPassthrough.wrapEach(bytes), as: UTF8.self)
        XCTAssertEqual(wrapped, "\u{1B}Ptmux;\u{1B}\u{1B}[3;4H\u{1B}\u{1B}_Ga=T,m=1;AAAA\u{1B}\u{1B}\\\u{1B}\\"
            + "\u{1B}Ptmux;\u{1B}\u{1B}_Gm=0;BBBB\u{1B}\u{1B}\\\u{1B}\\")
    }

    func testNoReplyAtAllMeansNoPixels() {
        var detection = detect("")
        XCTAssertFalse(detection.isFinished)
        detection.timedOut()
        XCTAssertTrue(detection.isFinished)
        XCTAssertEqual(detection.capabilities, GraphicsCapabilities())
    }

    /// A late kitty OK after DA1 still counts; a second DA1 (the keyboard's verification) does
    /// not change what the first said.
    func testOnlyTheFirstDA1Decides() {
        let detection = detect("\u{1B}[?62;4c\u{1B}[?62c")
        XCTAssertTrue(detection.capabilities.sixel)
    }

    /// Through the whole negotiation: graphics replies are consumed, DA1 still reaches the
    /// keyboard handshake (kitty's keyboard push goes out).
    func testNegotiationShareDA1WithTheKeyboard() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation(graphics: GraphicsDetection(multiplexer: nil, probeFile: nil))
        let queries = String(decoding: negotiation.start(), as: UTF8.self)
        XCTAssertTrue(queries.hasSuffix("\u{1B}[16t\u{1B}[?u\u{1B}[c"), "graphics queries come before the keyboard's DA1")
        var decoder = KeyDecoder()
        for event in decoder.decode(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;8t\u{1B}[?0u\u{1B}[?62;c\u{1B}[?11u\u{1B}[?62;c".utf8), now: .now) {
            XCTAssertTrue(negotiation.handle(event, terminal: terminal))
        }
        XCTAssertTrue(negotiation.isFinished)
        XCTAssertTrue(negotiation.releaseEvents)
        XCTAssertTrue(negotiation.graphics.capabilities.kitty)

        let console = TerminalNegotiation(asksBackground: false)
        var copy = console
        XCTAssertFalse(String(decoding: copy.start(), as: UTF8.self).contains("\u{1B}_G"), "nothing about pixels unless asked")
    }
}
