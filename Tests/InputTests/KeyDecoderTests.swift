import TestSupport
import XCTest
@testable import Input

final class KeyDecoderTests: XCTestCase {
    /// Captured from tmux 3.3a (`tmux send-keys Up Down Left Right Home End PPage NPage IC DC F1 F4
    /// F5 F12 C-Up S-F5 M-a C-a BSpace Enter Tab BTab` into a pane running a raw-mode byte dump).
    static let tmuxSample: [UInt8] = Array(
        "\u{1B}[A\u{1B}[B\u{1B}[D\u{1B}[C\u{1B}[1~\u{1B}[4~\u{1B}[5~\u{1B}[6~\u{1B}[2~\u{1B}[3~\u{1B}OP\u{1B}OS\u{1B}[15~\u{1B}[24~\u{1B}[1;5A\u{1B}[15;2~\u{1B}a\u{01}\u{7F}\r\t\u{1B}[Z".utf8)

    static let tmuxExpected: [InputEvent] = [
        press(.up), press(.down), press(.left), press(.right), press(.home), press(.end),
        press(.pageUp), press(.pageDown), press(.insert), press(.delete), press(.function(1)), press(.function(4)),
        press(.function(5)), press(.function(12)), press(.up, .control), press(.function(5), .shift),
        press(.character("a"), .alt), press(.character("a"), .control), press(.backspace), press(.enter),
        press(.tab), press(.tab, .shift),
    ]

    func testTmuxSample() {
        XCTAssertEqual(decode(Self.tmuxSample), Self.tmuxExpected)
    }

    func testTmuxSampleSplitAtEveryByte() {
        let bytes = Self.tmuxSample
        for split in 1..<bytes.count {
            let events = decodeReads([Array(bytes[..<split]), Array(bytes[split...])])
            XCTAssertEqual(events, Self.tmuxExpected, "split at \(split)")
        }
    }

    func testEveryByteInItsOwnRead() {
        XCTAssertEqual(decodeReads(Self.tmuxSample.map { [$0] }), Self.tmuxExpected)
    }

    /// xterm in application cursor mode (DECCKM) and with modifiers, per xterm's ctlseqs: SS3
    /// arrows and F1...F4, `CSI 1;mods P` for modified F1, Home/End as `CSI H`/`CSI F`.
    func testXtermLegacyForms() {
        XCTAssertEqual(decode("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD\u{1B}OH\u{1B}OF\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS"),
                       [press(.up), press(.down), press(.right), press(.left), press(.home), press(.end),
                        press(.function(1)), press(.function(2)), press(.function(3)), press(.function(4))])
        XCTAssertEqual(decode("\u{1B}[H\u{1B}[F\u{1B}[1;2P\u{1B}[1;3C\u{1B}[1;6D\u{1B}[5;5~\u{1B}[17~\u{1B}[23~"),
                       [press(.home), press(.end), press(.function(1), .shift), press(.right, .alt),
                        press(.left, [.shift, .control]), press(.pageUp, .control), press(.function(6)),
                        press(.function(11))])
        // xterm modifyOtherKeys: CSI 27 ; mods ; code ~ (Ctrl+Enter).
        XCTAssertEqual(decode("\u{1B}[27;5;13~"), [press(.enter, .control)])
    }

    func testLegacyControlBytesAndText() {
        XCTAssertEqual(decode("aZ 1\u{08}\u{7F}\r\t\u{00}\u{1A}"),
                       [press(.character("a")), press(.character("z"), .shift), press(.character(" ")),
                        press(.character("1")), press(.backspace), press(.backspace), press(.enter), press(.tab),
                        press(.character(" "), .control), press(.character("z"), .control)])
        XCTAssertEqual(decode("é€😀"), [press(.character("é")), press(.character("€")), press(.character("😀"))])
        XCTAssertEqual(decode("\u{1B}é"), [press(.character("é"), .alt)])
        if case .key(let event) = decode("Q")[0] { XCTAssertEqual(event.text, "Q") } else { XCTFail() }
    }

    /// kitty with flags 1|2|8 (`CSI > 11 u`): letters, Enter and lone modifiers as CSI u with event
    /// types, arrows as `CSI 1;mods:event A`, F5 as `CSI 15;mods:event ~` (kitty keyboard-protocol docs).
    func testKittyProtocol() {
        let bytes = "\u{1B}[97u\u{1B}[97;1:2u\u{1B}[97;1:3u\u{1B}[57447;2u\u{1B}[57447;1:3u\u{1B}[A\u{1B}[1;1:3A"
            + "\u{1B}[13u\u{1B}[13;1:3u\u{1B}[15~\u{1B}[15;1:3~\u{1B}[122;6u\u{1B}[27u\u{1B}[57441;2:3u"
            + "\u{1B}[97:65;2u\u{1B}[57399u\u{1B}[13~\u{1B}[127;1:3u"
        XCTAssertEqual(decode(bytes), [
            press(.character("a")), repeated(.character("a")), release(.character("a")),
            press(.rightShift, .shift), release(.rightShift), press(.up), release(.up),
            press(.enter), release(.enter), press(.function(5)), release(.function(5)),
            press(.character("z"), [.shift, .control]), press(.escape), release(.leftShift, .shift),
            .key(KeyEvent(.character("a"), modifiers: .shift, shiftedCharacter: "A")), press(.keypad("0")),
            press(.function(3)), release(.backspace),
        ])
        // Text with Shift: from the alternate when reported (flag 4), else upper-case letters only.
        let texts = decode("\u{1B}[49:33;2u\u{1B}[97;2u\u{1B}[97;5u\u{1B}[97;1:3u").map { event -> String? in
            if case .key(let key) = event { return key.text } else { return "not a key" }
        }
        XCTAssertEqual(texts, ["!", "A", nil, nil])
    }

    func testKittyUnknownFunctionalKeysAreSkipped() {
        // Media keys (57428...) and left hyper have no Key: skipped whole, the next key survives.
        XCTAssertEqual(decode("\u{1B}[57428u\u{1B}[57445;1:3ux"), [press(.character("x"))])
    }

    func testRepliesToQueries() {
        // The kitty flags reply then DA1 (as kitty sends them); DA1 replies with attribute lists; tmux-style `?1;2c`.
        XCTAssertEqual(decode("\u{1B}[?11u\u{1B}[?62;c"), [.keyboardFlags(11), .deviceAttributes([62, 0])])
        XCTAssertEqual(decode("\u{1B}[?0u\u{1B}[?62;4;22c"), [.keyboardFlags(0), .deviceAttributes([62, 4, 22])])
        XCTAssertEqual(decode("\u{1B}[?1;2c"), [.deviceAttributes([1, 2])])
        // DA2 and other private replies are skipped, not mistaken for keys.
        XCTAssertEqual(decode("\u{1B}[>1;4000;0cq"), [press(.character("q"))])
        // DECRPM, the answer to the synchronized-output query, comes before DA1.
        XCTAssertEqual(decode("\u{1B}[?2026;2$y\u{1B}[?62;c"), [.modeReport(mode: 2026, setting: 2), .deviceAttributes([62, 0])])
        XCTAssertEqual(decode("\u{1B}[?2026;0$y"), [.modeReport(mode: 2026, setting: 0)])
        // OSC 11 background replies (4 or 2 hex digits, ST or BEL); other OSC strings are skipped.
        XCTAssertEqual(decode("\u{1B}]11;rgb:ffff/0000/8080\u{1B}\\a"),
                       [.backgroundColor(red: 1, green: 0, blue: Double(0x8080) / 65535), press(.character("a"))])
        XCTAssertEqual(decode("\u{1B}]11;rgb:ff/00/00\u{07}"), [.backgroundColor(red: 1, green: 0, blue: 0)])
        XCTAssertEqual(decode("\u{1B}]11;rgba:ffff/ffff/ffff/ffff\u{1B}\\"), [.backgroundColor(red: 1, green: 1, blue: 1)])
        XCTAssertEqual(decode("\u{1B}]11;?\u{1B}\\\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}]11;rgb:zz/00/00\u{07}"), [])
        // OSC 4 palette replies: the entry and its colour at 16 bits (xterm sends 4 digits, some 2);
        // a malformed one or an index out of range is skipped.
        XCTAssertEqual(decode("\u{1B}]4;40;rgb:0000/d7d7/0000\u{1B}\\\u{1B}]4;255;rgb:ee/ee/ee\u{07}"),
                       [.paletteColor(index: 40, red: 0, green: 0xD7D7, blue: 0), .paletteColor(index: 255, red: 0xEEEE, green: 0xEEEE, blue: 0xEEEE)])
        XCTAssertEqual(decode("\u{1B}]4;300;rgb:00/00/00\u{07}\u{1B}]4;x;rgb:00/00/00\u{07}\u{1B}]4;20;?\u{07}"), [])
        // ANSI-mode DECRPM, incomplete reports and other intermediates are skipped whole.
        XCTAssertEqual(decode("\u{1B}[4;2$yq\u{1B}[?2026$yq\u{1B}[?2026;1 yq"), Array(repeating: press(.character("q")), count: 3))
    }

    func testSGRMouse() {
        XCTAssertEqual(decode("\u{1B}[<0;10;5M\u{1B}[<32;11;5M\u{1B}[<0;11;5m\u{1B}[<64;3;4M\u{1B}[<65;3;4M\u{1B}[<18;1;1M\u{1B}[<35;7;8M"), [
            .mouse(MouseEvent(kind: .press, button: .left, column: 9, row: 4)),
            .mouse(MouseEvent(kind: .drag, button: .left, column: 10, row: 4)),
            .mouse(MouseEvent(kind: .release, button: .left, column: 10, row: 4)),
            .mouse(MouseEvent(kind: .press, button: .wheelUp, column: 2, row: 3)),
            .mouse(MouseEvent(kind: .press, button: .wheelDown, column: 2, row: 3)),
            .mouse(MouseEvent(kind: .press, button: .right, column: 0, row: 0, modifiers: .control)),
            .mouse(MouseEvent(kind: .move, button: .none, column: 6, row: 7)),
        ])
    }

    func testBracketedPasteIsOneEvent() {
        let bytes = Array("x\u{1B}[200~hello\r\u{1B}[A wörld\u{1B}[201~y".utf8)
        let expected: [InputEvent] = [press(.character("x")), .paste("hello\r\u{1B}[A wörld"), press(.character("y"))]
        XCTAssertEqual(decode(bytes), expected)
        for split in 1..<bytes.count {
            XCTAssertEqual(decodeReads([Array(bytes[..<split]), Array(bytes[split...])]), expected, "split at \(split)")
        }
    }

    func testUnterminatedPasteIsDeliveredAfterTimeout() {
        var decoder = KeyDecoder()
        let start = ContinuousClock.now
        XCTAssertEqual(decoder.decode(Array("\u{1B}[200~abc".utf8), now: start), [])
        XCTAssertEqual(decoder.flush(now: start + .milliseconds(100)), [])
        XCTAssertEqual(decoder.flush(now: start + .seconds(3)), [.paste("abc")])
        XCTAssertFalse(decoder.hasPendingBytes)
    }

    func testFocusReports() {
        XCTAssertEqual(decode("\u{1B}[I\u{1B}[O"), [.focus(true), .focus(false)])
    }

    func testLoneEscapeWaitsForTimeout() {
        var decoder = KeyDecoder(escapeTimeout: .milliseconds(50))
        let start = ContinuousClock.now
        XCTAssertEqual(decoder.decode([0x1B], now: start), [])
        XCTAssertEqual(decoder.pendingDeadline, start + .milliseconds(50))
        XCTAssertEqual(decoder.flush(now: start + .milliseconds(49)), [])
        XCTAssertEqual(decoder.flush(now: start + .milliseconds(50)), [press(.escape)])
        XCTAssertNil(decoder.pendingDeadline)
        // ESC then '[A' within the timeout is the Up key; after it, Escape then '[' 'A'.
        XCTAssertEqual(decoder.decode([0x1B], now: start), [])
        XCTAssertEqual(decoder.decode(Array("[A".utf8), now: start + .milliseconds(10)), [press(.up)])
        XCTAssertEqual(decoder.decode([0x1B], now: start), [])
        XCTAssertEqual(decoder.decode(Array("a".utf8), now: start + .milliseconds(80)),
                       [press(.escape), press(.character("a"))])
        // Two ESCs: the first is certainly the Escape key.
        XCTAssertEqual(decode("\u{1B}\u{1B}"), [press(.escape), press(.escape)])
        // GNU screen holds a lone Esc back until the next key: Esc, then the key (not Alt+key).
        XCTAssertEqual(decode("\u{1B}\u{1B}[B"), [press(.escape), press(.down)])
        XCTAssertEqual(decode("\u{1B}\u{1B}OA"), [press(.escape), press(.up)])
        XCTAssertEqual(decode("\u{1B}\u{1B}x"), [press(.escape), press(.character("x"), .alt)])
    }

    func testTimedOutPrefixesResolveToAltKeys() {
        XCTAssertEqual(decode("\u{1B}["), [press(.character("["), .alt)])
        XCTAssertEqual(decode("\u{1B}O"), [press(.character("o"), [.alt, .shift])])
        XCTAssertEqual(decode("\u{1B}P"), [press(.character("p"), [.alt, .shift])])
        XCTAssertEqual(decode("\u{1B}[1;5"), [])  // an unfinished sequence is dropped, not typed
    }

    func testUnknownSequencesAreSkippedWhole() {
        // Unknown CSI finals, intermediates, OSC (not 11)/DCS strings, X10 mouse.
        let bytes = "\u{1B}[5;7y1\u{1B}[2 q2\u{1B}]10;rgb:0000/0000/0000\u{07}3\u{1B}P1$r0m\u{1B}\\4\u{1B}[M !!56"
        XCTAssertEqual(decode(bytes), "123456".map { press(.character(Unicode.Scalar(String($0))!)) })
    }

    func testCursorPositionReportIsAReplyNotF3() {
        // The link pacer's probe answer (row 2 or more); `CSI 1;2 R` stays Shift+F3.
        XCTAssertEqual(decode("a\u{1B}[12;40Rb"), [press(.character("a")), .cursorPosition(row: 12, column: 40), press(.character("b"))])
        XCTAssertEqual(decode("\u{1B}[1;2R"), [press(.function(3), .shift)])
    }

    func testCursorPositionReportsTheFastReadingLeavesToTheGeneralOne() {
        // Read in place (`cursorPositionReport`): two plain numbers, row above 1. Every other form
        // of `CSI … R` must decode as the general path says, and a split answer must wait.
        XCTAssertEqual(decode("\u{1B}[0050;007R"), [.cursorPosition(row: 50, column: 7)])
        XCTAssertEqual(decode("\u{1B}[12R"), [.cursorPosition(row: 12, column: 1)])
        XCTAssertEqual(decode("\u{1B}[0;5R"), [.cursorPosition(row: 0, column: 5)])
        XCTAssertEqual(decode("\u{1B}[R"), [press(.function(3))])
        XCTAssertEqual(decode("\u{1B}[1;5R"), [press(.function(3), .control)])
        XCTAssertEqual(decode("\u{1B}[2;R"), [.cursorPosition(row: 2, column: 1)])
        XCTAssertEqual(decode("\u{1B}[3;4;5R"), [.cursorPosition(row: 3, column: 4)])
        var decoder = KeyDecoder()
        let now = ContinuousClock.now
        XCTAssertEqual(decoder.decode(Array("\u{1B}[50;".utf8), now: now), [])
        XCTAssertEqual(decoder.decode(Array("1Rx".utf8), now: now), [.cursorPosition(row: 50, column: 1), press(.character("x"))])
    }

    func testInvalidUTF8IsSkipped() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xC3, 0x63, 0xE2, 0x82, 0x64, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x65, 0x80, 0xC3]
        XCTAssertEqual(decode(bytes), [press(.character("a")), press(.character("b")), press(.character("c")),
                                       press(.character("d")), press(.character("e"))])
    }

    func testSplitUTF8IsReassembled() {
        let bytes = Array("€".utf8)
        XCTAssertEqual(decodeReads([[bytes[0]], [bytes[1]], [bytes[2]]]), [press(.character("€"))])
    }

    /// Seeded random bytes, mixed with fragments of real sequences: never crashes, every event is
    /// well formed, and once the deadline passes nothing is left waiting (always progress).
    func testFuzzNeverStalls() {
        var generator = SeededGenerator(seed: 0x5EED_CAFE)
        let fragments: [[UInt8]] = ["\u{1B}", "\u{1B}[", "\u{1B}[<", "\u{1B}]", "\u{1B}P", "\u{1B}O", "\u{1B}[200~",
                                    "\u{1B}[201~", ";", ":", "1", "u", "~", "\u{7}", "\u{1B}\\", "M"].map { Array($0.utf8) }
        var decoder = KeyDecoder()
        var now = ContinuousClock.now
        var totalEvents = 0
        for round in 0..<3000 {
            var chunk: [UInt8] = []
            for _ in 0..<Int(generator.next() % 24) {
                if generator.next() % 3 == 0 {
                    chunk += fragments[Int(generator.next() % UInt64(fragments.count))]
                } else {
                    chunk.append(UInt8(truncatingIfNeeded: generator.next()))
                }
            }
            now += .milliseconds(Int64(generator.next() % 30))
            totalEvents += decoder.decode(chunk, now: now).count
            if round % 50 == 0 {
                now += .seconds(5)
                totalEvents += decoder.flush(now: now).count
                XCTAssertFalse(decoder.hasPendingBytes, "round \(round)")
            }
        }
        XCTAssertGreaterThan(totalEvents, 1000)
    }
}
