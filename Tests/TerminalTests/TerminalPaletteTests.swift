import XCTest
@testable import Terminal

final class TerminalPaletteTests: XCTestCase {
    /// Every answered entry is given back as `OSC 4 ; n ; rgb:rrrr/gggg/bbbb ST`, four lower-case
    /// hex digits per component, in the order the entries are handed out, once the probe entry
    /// showed that redefinitions take.
    func testRestoreBytesGiveBackEachEntryExactly() {
        var palette = TerminalPalette()
        XCTAssertEqual(palette.restoreBytes, [], "nothing answered, nothing to give back")
        let answered = Array(TerminalPalette.candidates.prefix(20)) + [TerminalPalette.probeEntry]
        for (offset, index) in answered.enumerated() {
            XCTAssertTrue(palette.record(index: index, red: UInt16(offset * 0x0111), green: 0xABCD, blue: 5))
        }
        XCTAssertFalse(palette.record(index: 3, red: 0, green: 0, blue: 0), "entry 3 is the menus'")
        XCTAssertEqual(String(decoding: palette.takeFollowUp(), as: UTF8.self), "\u{1B}]4;87;rgb:1212/5656/9a9a\u{1B}\\\u{1B}]4;87;?\u{1B}\\",
                       "the probe entry's own colour came: the probe")
        XCTAssertEqual(palette.takeFollowUp(), [], "once")
        XCTAssertTrue(palette.record(index: TerminalPalette.probeEntry, red: 0x1212, green: 0x5656, blue: 0x9A9A))
        XCTAssertEqual(palette.redefinitionsTake, true)
        let expected = answered.enumerated().map { offset, index in
            let red = String(UInt16(offset * 0x0111), radix: 16)
            return "\u{1B}]4;\(index);rgb:\(String(repeating: "0", count: 4 - red.count) + red)/abcd/0005\u{1B}\\"
        }.joined()
        XCTAssertEqual(String(decoding: palette.restoreBytes, as: UTF8.self), expected)
        XCTAssertTrue(expected.hasPrefix("\u{1B}]4;16;rgb:0000/abcd/0005\u{1B}\\\u{1B}]4;17;rgb:0111/"))
        XCTAssertEqual(String(decoding: palette.takeFollowUp(), as: UTF8.self), "\u{1B}]4;87;rgb:1554/abcd/0005\u{1B}\\",
                       "the probe's answer came: the probe entry's own colour, from its first answer")
    }

    /// The probe's second answer decides: the probe colour in 8 or 16 bits a component means
    /// redefinitions take; the entry's own colour again (Konsole 22.12), or an own colour that
    /// is the probe's (nothing to tell by), means the palette is not used; a third answer
    /// changes nothing.
    func testTheProbesSecondAnswerSaysWhetherRedefinitionsTake() {
        func palette(own: (UInt16, UInt16, UInt16), then second: (UInt16, UInt16, UInt16)) -> TerminalPalette {
            var palette = TerminalPalette()
            for index in TerminalPalette.candidates where index != TerminalPalette.probeEntry {
                _ = palette.record(index: index, red: 0, green: 0, blue: 0)
            }
            _ = palette.record(index: TerminalPalette.probeEntry, red: own.0, green: own.1, blue: own.2)
            XCTAssertNil(palette.redefinitionsTake)
            XCTAssertEqual(palette.redefinableEntries, [], "not used before the probe's answer")
            XCTAssertFalse(palette.takeFollowUp().isEmpty, "the probe")
            _ = palette.record(index: TerminalPalette.probeEntry, red: second.0, green: second.1, blue: second.2)
            return palette
        }
        let xterm = (UInt16(0x5F5F), UInt16(0xFFFF), UInt16(0xFFFF))
        XCTAssertEqual(palette(own: xterm, then: (0x1212, 0x5656, 0x9A9A)).redefinableEntries.count, TerminalPalette.candidates.count)
        XCTAssertEqual(palette(own: xterm, then: (0x1200, 0x5600, 0x9A00)).redefinitionsTake, true, "8 bits kept")
        let konsole = palette(own: xterm, then: xterm)
        XCTAssertEqual(konsole.redefinitionsTake, false)
        XCTAssertEqual(konsole.redefinableEntries, [])
        XCTAssertEqual(konsole.restoreBytes, [], "nothing but the probe was ever redefined")
        var given = konsole
        XCTAssertEqual(String(decoding: given.takeFollowUp(), as: UTF8.self), "\u{1B}]4;87;rgb:5f5f/ffff/ffff\u{1B}\\")
        XCTAssertEqual(palette(own: (0x1212, 0x5656, 0x9A9A), then: (0x1212, 0x5656, 0x9A9A)).redefinitionsTake, false)
        XCTAssertEqual(palette(own: xterm, then: (0x1213, 0x5656, 0x9A9A)).redefinitionsTake, true, "only the high byte counts")
        XCTAssertEqual(palette(own: xterm, then: (0x1312, 0x5656, 0x9A9A)).redefinitionsTake, false)

        var late = palette(own: xterm, then: xterm)
        _ = late.takeFollowUp()
        _ = late.record(index: TerminalPalette.probeEntry, red: 0x1212, green: 0x5656, blue: 0x9A9A)
        XCTAssertEqual(late.takeFollowUp(), [], "nothing more to write")
        XCTAssertEqual(late.redefinitionsTake, false, "the first check stands")
        XCTAssertEqual(late.reported[TerminalPalette.probeEntry]?.red, 0x5F5F, "the own colour stands")
    }
}
