import XCTest
@testable import PhosphorKit

final class PositionedJSONTests: XCTestCase {
    private func syntaxError(_ text: String) -> PositionedJSONSyntaxError? {
        do {
            _ = try PositionedJSON.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    func testParsesValuesAndRemembersLines() throws {
        let document = try PositionedJSON.parse(Array("{\n \"a\": [1, -2.5e1, true, null],\n \"b\": \"x\\u00e9\\ud83d\\ude00\\n\"\n}".utf8))
        guard case .object(let members) = document.value else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["a", "b"])
        XCTAssertEqual(members.map(\.line), [2, 3])
        guard case .array(let elements) = members[0].value.value, case .number(let number) = elements[1].value else {
            return XCTFail("not a list")
        }
        XCTAssertEqual(elements.count, 4)
        XCTAssertEqual(number, -25)
        guard case .string(let text) = members[1].value.value else { return XCTFail("not a string") }
        XCTAssertEqual(text, "xé😀\n")
    }

    func testSyntaxErrorsCarryLineAndColumn() {
        XCTAssertEqual(syntaxError("{\n  \"a\": 1\n  \"b\": 2\n}")?.line, 3)
        XCTAssertEqual(syntaxError("{\"a\": tru}")?.column, 7)
        XCTAssertEqual(syntaxError("")?.message, "the file is empty")
        XCTAssertEqual(syntaxError("{\"a\": 1} x")?.message, "unexpected 'x' after the end of the document")
        XCTAssertEqual(syntaxError("{\"a\": \"unterminated\n}")?.line, 1)
        XCTAssertEqual(syntaxError("[01]")?.message, "numbers may not start with 0")
        XCTAssertNotNil(syntaxError(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
        XCTAssertEqual(syntaxError("\"\\x\"")?.message, "an unknown escape '\\x' in a string")
        XCTAssertEqual(syntaxError("{\"a\": 1,\n}")?.message, "a ',' before '}' (trailing commas are not allowed)")
    }

    func testRejectsInvalidUTF8() {
        var bytes = Array("{\"a\": \"".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"}".utf8)
        XCTAssertThrowsError(try PositionedJSON.parse(bytes))
    }
}
