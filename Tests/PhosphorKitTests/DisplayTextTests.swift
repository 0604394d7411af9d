import PhosphorKit
import XCTest

final class DisplayTextTests: XCTestCase {
    func testSanitizedRemovesEscapesControlsAndBidi() {
        let hostile = "a\u{1B}]0;pwned\u{07}b\u{9B}31mc\u{202E}gnp.exe\u{2066}d\te\u{7F}\n"
        let clean = DisplayText.sanitized(hostile)
        XCTAssertEqual(clean, "a\u{FFFD}]0;pwned\u{FFFD}b\u{FFFD}31mc\u{FFFD}gnp.exe\u{FFFD}d e\u{FFFD}\u{FFFD}")
        for scalar in clean.unicodeScalars {
            XCTAssertFalse(DisplayText.isUnsafe(scalar), "\(scalar.value)")
        }
        XCTAssertEqual(DisplayText.sanitized("Pokémon – ポケモン"), "Pokémon – ポケモン")
    }

    func testStrippingUnsafeDropsWhatSanitizedWouldReplace() {
        XCTAssertEqual(DisplayText.strippingUnsafe("zel\u{1B}[2Jda\t\u{2028}\u{FEFF}!"), "zel[2Jda!")
        XCTAssertEqual(DisplayText.strippingUnsafe("Pokémon – ポケモン"), "Pokémon – ポケモン")
        XCTAssertEqual(DisplayText.strippingUnsafe("\u{7}\u{9B}"), "")
    }
}
