import XCTest
@testable import Input
import Terminal

/// Byte streams recorded from real terminals under Xvfb: a raw-mode program enabled SGR mouse,
/// bracketed paste and focus reports, sent `CSI ? u` + `CSI c` (and for kitty `CSI > 11 u` plus a
/// second query), and logged every byte while `xdotool` typed: Up Down Home End Prior Next Insert
/// Delete F1 F3 F5 F12 ctrl+Up shift+F5 alt+a ctrl+a BackSpace Return Tab Escape, then keydown/keyup
/// z, Shift_R, Left, typed é, clicked, dragged and scrolled the wheel once.
final class TerminalCaptureTests: XCTestCase {
    /// xterm 379 (Debian 12, default resources). xterm answers DA1 but not `CSI ? u`; Alt+a
    /// arrives as "á" (xterm's default eightBitInput, UTF-8 encoded); no key releases, Shift_R
    /// alone sends nothing.
    static let xtermBeforeEscape = "\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c\u{1B}[I\u{1B}[A\u{1B}[B\u{1B}[H\u{1B}[F"
        + "\u{1B}[5~\u{1B}[6~\u{1B}[2~\u{1B}[3~\u{1B}OP\u{1B}OR\u{1B}[15~\u{1B}[24~\u{1B}[1;5A\u{1B}[15;2~"
        + "á\u{01}\u{7F}\r\t\u{1B}"
    static let xtermAfterEscape = "z\u{1B}[Dé\u{1B}[<0;9;3M\u{1B}[<0;9;3m\u{1B}[<0;9;3M\u{1B}[<32;14;3M\u{1B}[<0;14;3m\u{1B}[<64;14;3M"

    func testXtermCapture() {
        let events = decodeReads([Array(Self.xtermBeforeEscape.utf8), Array(Self.xtermAfterEscape.utf8)],
                                 gap: .milliseconds(200))
        XCTAssertEqual(events, [
            .deviceAttributes([64, 1, 2, 6, 9, 15, 16, 17, 18, 21, 22, 28]), .focus(true),
            press(.up), press(.down), press(.home), press(.end), press(.pageUp), press(.pageDown),
            press(.insert), press(.delete), press(.function(1)), press(.function(3)), press(.function(5)),
            press(.function(12)), press(.up, .control), press(.function(5), .shift), press(.character("á")),
            press(.character("a"), .control), press(.backspace), press(.enter), press(.tab), press(.escape),
            press(.character("z")), press(.left), press(.character("é")),
            .mouse(MouseEvent(kind: .press, button: .left, column: 8, row: 2)),
            .mouse(MouseEvent(kind: .release, button: .left, column: 8, row: 2)),
            .mouse(MouseEvent(kind: .press, button: .left, column: 8, row: 2)),
            .mouse(MouseEvent(kind: .drag, button: .left, column: 13, row: 2)),
            .mouse(MouseEvent(kind: .release, button: .left, column: 13, row: 2)),
            .mouse(MouseEvent(kind: .press, button: .wheelUp, column: 13, row: 2)),
        ])
    }

    /// kitty 0.26.5 with `CSI > 11 u` pushed: every key has a press and a release, modifier keys are
    /// keys of their own (xdotool's Shift_R arrives as left then right shift).
    static let kitty = "\u{1B}[?0u\u{1B}[?62;c\u{1B}[?11u\u{1B}[?62;c\u{1B}[A\u{1B}[1;1:3A\u{1B}[B\u{1B}[1;1:3B"
        + "\u{1B}[H\u{1B}[1;1:3H\u{1B}[F\u{1B}[1;1:3F\u{1B}[5~\u{1B}[5;1:3~\u{1B}[6~\u{1B}[6;1:3~\u{1B}[2~"
        + "\u{1B}[2;1:3~\u{1B}[3~\u{1B}[3;1:3~\u{1B}[P\u{1B}[1;1:3P\u{1B}[R\u{1B}[1;1:3R\u{1B}[15~\u{1B}[15;1:3~"
        + "\u{1B}[24~\u{1B}[24;1:3~\u{1B}[57442u\u{1B}[1;5A\u{1B}[57442;5:3u\u{1B}[1;1:3A\u{1B}[57441u"
        + "\u{1B}[15;2~\u{1B}[57441;2:3u\u{1B}[15;1:3~\u{1B}[57443u\u{1B}[97;3u\u{1B}[57443;3:3u\u{1B}[97;1:3u"
        + "\u{1B}[57442u\u{1B}[97;5u\u{1B}[57442;5:3u\u{1B}[97;1:3u\u{1B}[127u\u{1B}[127;1:3u\u{1B}[13u"
        + "\u{1B}[13;1:3u\u{1B}[9u\u{1B}[9;1:3u\u{1B}[27u\u{1B}[27;1:3u\u{1B}[122u\u{1B}[122;1:3u\u{1B}[57441u"
        + "\u{1B}[57447;2u\u{1B}[57441;2:3u\u{1B}[57447;2:3u\u{1B}[D\u{1B}[1;1:3D\u{1B}[233u\u{1B}[<0;6;3M"
        + "\u{1B}[<0;6;3m\u{1B}[<0;6;3M\u{1B}[<32;9;3M\u{1B}[<0;9;3m\u{1B}[<64;9;3M"

    static let kittyExpected: [InputEvent] = {
        func both(_ key: Key) -> [InputEvent] { [press(key), release(key)] }
        var events: [InputEvent] = [.keyboardFlags(0), .deviceAttributes([62, 0]), .keyboardFlags(11),
                                    .deviceAttributes([62, 0])]
        for key: Key in [.up, .down, .home, .end, .pageUp, .pageDown, .insert, .delete, .function(1),
                         .function(3), .function(5), .function(12)] {
            events += both(key)
        }
        events += [press(.leftControl), press(.up, .control), release(.leftControl, .control), release(.up)]
        events += [press(.leftShift), press(.function(5), .shift), release(.leftShift, .shift), release(.function(5))]
        events += [press(.leftAlt), press(.character("a"), .alt), release(.leftAlt, .alt), release(.character("a"))]
        events += [press(.leftControl), press(.character("a"), .control), release(.leftControl, .control),
                   release(.character("a"))]
        for key: Key in [.backspace, .enter, .tab, .escape, .character("z")] { events += both(key) }
        events += [press(.leftShift), press(.rightShift, .shift), release(.leftShift, .shift),
                   release(.rightShift, .shift)]
        events += both(.left) + [press(.character("é"))]
        events += [
            .mouse(MouseEvent(kind: .press, button: .left, column: 5, row: 2)),
            .mouse(MouseEvent(kind: .release, button: .left, column: 5, row: 2)),
            .mouse(MouseEvent(kind: .press, button: .left, column: 5, row: 2)),
            .mouse(MouseEvent(kind: .drag, button: .left, column: 8, row: 2)),
            .mouse(MouseEvent(kind: .release, button: .left, column: 8, row: 2)),
            .mouse(MouseEvent(kind: .press, button: .wheelUp, column: 8, row: 2)),
        ]
        return events
    }()

    func testKittyCapture() {
        XCTAssertEqual(decode(Self.kitty), Self.kittyExpected)
    }

    func testKittyCaptureSplitAtEveryByte() {
        let bytes = Array(Self.kitty.utf8)
        for split in stride(from: 1, to: bytes.count, by: 1) {
            XCTAssertEqual(decodeReads([Array(bytes[..<split]), Array(bytes[split...])]), Self.kittyExpected,
                           "split at \(split)")
        }
    }

    /// The negotiation fed with the replies each terminal really sent.
    func testNegotiationWithCapturedReplies() {
        var kitty = KeyboardProtocolNegotiation()
        XCTAssertEqual(kitty.start(), Array("\u{1B}[?u\u{1B}[c".utf8))
        var written: [UInt8] = []
        for event in decode(Self.kitty).prefix(4) { written += kitty.handle(event) }
        XCTAssertEqual(written, Array("\u{1B}[>11u\u{1B}[?u\u{1B}[c".utf8))
        XCTAssertEqual(kitty.state, .active(flags: 11))
        XCTAssertTrue(kitty.releaseEvents)
        XCTAssertEqual(kitty.restoreBytes, Array("\u{1B}[<u".utf8))

        var xterm = KeyboardProtocolNegotiation()
        _ = xterm.start()
        for event in decode(Self.xtermBeforeEscape).prefix(1) { XCTAssertEqual(xterm.handle(event), []) }
        XCTAssertEqual(xterm.state, .unsupported)
        XCTAssertFalse(xterm.releaseEvents)
        XCTAssertEqual(xterm.restoreBytes, [])
    }

    /// tmux 3.3a answering `CSI ? u` + `CSI c` (DA1 only: no kitty protocol), then
    /// `tmux paste-buffer -p` of "pasted é text" (bracketed, since the program enabled mode 2004), then q.
    static let tmuxReplies = "\u{1B}[?1;2c\u{1B}[200~pasted é text\u{1B}[201~q"

    func testTmuxRepliesAndPaste() {
        XCTAssertEqual(decode(Self.tmuxReplies), [.deviceAttributes([1, 2]), .paste("pasted é text"),
                                                 press(.character("q"))])
        var negotiation = KeyboardProtocolNegotiation()
        _ = negotiation.start()
        for event in decode(Self.tmuxReplies) { XCTAssertEqual(negotiation.handle(event), []) }
        XCTAssertEqual(negotiation.state, .unsupported)
    }

    /// VTE 0.70.6 (Debian's sakura 3.8.6 under Xvfb), same keystrokes as xterm. VTE also answers DA1
    /// only, reports focus changes as the window maps, and sends Alt+a as ESC a.
    static let vteBeforeEscape = "\u{1B}[?65;1;9c\u{1B}[I\u{1B}[O\u{1B}[I\u{1B}[A\u{1B}[B\u{1B}[H\u{1B}[F\u{1B}[5~"
        + "\u{1B}[6~\u{1B}[2~\u{1B}[3~\u{1B}OP\u{1B}OR\u{1B}[15~\u{1B}[24~\u{1B}[1;5A\u{1B}[15;2~\u{1B}a\u{01}\u{7F}\r\t\u{1B}"
    static let vteAfterEscape = "z\u{1B}[Dé\u{1B}[<0;5;2M\u{1B}[<0;5;2m\u{1B}[<0;5;2M\u{1B}[<32;8;2M\u{1B}[<0;8;2m\u{1B}[<64;8;2M"

    func testVTECapture() {
        let events = decodeReads([Array(Self.vteBeforeEscape.utf8), Array(Self.vteAfterEscape.utf8)],
                                 gap: .milliseconds(200))
        XCTAssertEqual(events, [
            .deviceAttributes([65, 1, 9]), .focus(true), .focus(false), .focus(true),
            press(.up), press(.down), press(.home), press(.end), press(.pageUp), press(.pageDown),
            press(.insert), press(.delete), press(.function(1)), press(.function(3)), press(.function(5)),
            press(.function(12)), press(.up, .control), press(.function(5), .shift), press(.character("a"), .alt),
            press(.character("a"), .control), press(.backspace), press(.enter), press(.tab), press(.escape),
            press(.character("z")), press(.left), press(.character("é")),
            .mouse(MouseEvent(kind: .press, button: .left, column: 4, row: 1)),
            .mouse(MouseEvent(kind: .release, button: .left, column: 4, row: 1)),
            .mouse(MouseEvent(kind: .press, button: .left, column: 4, row: 1)),
            .mouse(MouseEvent(kind: .drag, button: .left, column: 7, row: 1)),
            .mouse(MouseEvent(kind: .release, button: .left, column: 7, row: 1)),
            .mouse(MouseEvent(kind: .press, button: .wheelUp, column: 7, row: 1)),
        ])
        var negotiation = KeyboardProtocolNegotiation()
        _ = negotiation.start()
        for event in events { _ = negotiation.handle(event) }
        XCTAssertEqual(negotiation.state, .unsupported)
    }
}
