import XCTest
@testable import Terminal

final class TerminalPaletteTests: XCTestCase {
    /// Every answered entry is given back as `OSC 4 ; n ; rgb:rrrr/gggg/bbbb ST`, four lower-case
    /// hex digits per component, in the order the entries are handed out.
    func testRestoreBytesGiveBackEachEntryExactly() {
        var palette = TerminalPalette()
        XCTAssertEqual(palette.restoreBytes, [], "nothing answered, nothing to give back")
        for (offset, index) in TerminalPalette.candidates.prefix(20).enumerated() {
            XCTAssertTrue(palette.record(index: index, red: UInt16(offset * 0x0111), green: 0xABCD, blue: 5))
        }
        XCTAssertFalse(palette.record(index: 3, red: 0, green: 0, blue: 0), "entry 3 is the menus'")
        let expected = TerminalPalette.candidates.prefix(20).enumerated().map { offset, index in
            let red = String(UInt16(offset * 0x0111), radix: 16)
            return "\u{1B}]4;\(index);rgb:\(String(repeating: "0", count: 4 - red.count) + red)/abcd/0005\u{1B}\\"
        }.joined()
        XCTAssertEqual(String(decoding: palette.restoreBytes, as: UTF8.self), expected)
        XCTAssertTrue(expected.hasPrefix("\u{1B}]4;16;rgb:0000/abcd/0005\u{1B}\\\u{1B}]4;17;rgb:0111/"))
    }
}
