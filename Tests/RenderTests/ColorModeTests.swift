import Render
import XCTest

final class ColorModeTests: XCTestCase {
    func testDetectionFromEnvironment() {
        XCTAssertEqual(ColorMode.detect(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]), .trueColor)
        XCTAssertEqual(ColorMode.detect(environment: ["COLORTERM": "24bit"]), .trueColor)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "xterm-kitty"]), .trueColor)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "xterm-256color"]), .palette256)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "tmux-256color", "COLORTERM": "yes"]), .palette256)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "screen"]), .palette256)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "linux"]), .palette16)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "vt220"]), .palette16)
        XCTAssertEqual(ColorMode.detect(environment: [:]), .palette16)
    }

    func testArgumentParsing() throws {
        XCTAssertEqual(try ColorMode(argument: "24bit"), .trueColor)
        XCTAssertEqual(try ColorMode(argument: "truecolor"), .trueColor)
        XCTAssertEqual(try ColorMode(argument: "256"), .palette256)
        XCTAssertEqual(try ColorMode(argument: "16"), .palette16)
        XCTAssertThrowsError(try ColorMode(argument: "8")) { error in
            XCTAssertEqual(error as? RenderError, .unknownColorMode("8"))
            XCTAssertTrue("\(error)".contains("'8'"))
        }
        for mode in ColorMode.allCases { XCTAssertEqual(try ColorMode(argument: mode.rawValue), mode) }
    }

    /// With COLORTERM unset, the terminfo entry decides (issue 16): the RGB flag or 2^24 colours
    /// mean 24-bit, 256 colours the palette, whatever TERM is called; COLORTERM still wins.
    func testTerminfoDecidesWhenCOLORTERMIsUnset() {
        let plain = ["TERM": "mystery"]
        XCTAssertEqual(ColorMode.detect(environment: plain, terminfo: (colors: 256, directColor: true)), .trueColor)
        XCTAssertEqual(ColorMode.detect(environment: plain, terminfo: (colors: 1 << 24, directColor: false)), .trueColor)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "mystery-16"], terminfo: (colors: 256, directColor: false)), .palette256)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "vt220"], terminfo: (colors: 256, directColor: false)), .palette256)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "vt220"], terminfo: (colors: 8, directColor: false)), .palette16)
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "vt220", "COLORTERM": "yes"], terminfo: (colors: 256, directColor: true)),
                       .palette16, "a COLORTERM that names no depth leaves terminfo out, as before")
        XCTAssertEqual(ColorMode.detect(environment: ["TERM": "vt220", "COLORTERM": "truecolor"], terminfo: (colors: 8, directColor: false)),
                       .trueColor)
    }
}

final class CellTests: XCTestCase {
    func testTextThatIsNotOneColumnWideBecomesAQuestionMark() {
        let scalars: [Unicode.Scalar] = ["\u{07}", "\u{1B}", "\u{7F}", "\u{301}", "漢", "\u{1F600}", "\u{200B}"]
        for scalar in scalars {
            XCTAssertEqual(Cell(scalar, foreground: .white, background: .black).character, 0x3F, "U+\(String(scalar.value, radix: 16))")
        }
        for scalar: Unicode.Scalar in ["A", "é", "│", "▀", "─", "█"] {
            XCTAssertEqual(Cell(scalar, foreground: .white, background: .black).character, scalar.value)
        }
    }
}
