import Foundation

/// A JSON value that remembers where it was written, so a settings or skin error can name the line.
///
/// Foundation's JSON parsers report only "around character N" for a syntax error and nothing at all
/// about where a wrongly typed value sits; Phosphor's error messages must name the line, so all its
/// user-edited files (config, skins, key maps, gamepad maps) go through this small parser (RFC 8259, UTF-8). Pure value type, any thread.
public struct PositionedJSON: Sendable {
    public indirect enum Value: Sendable {
        case object([Member])
        case array([PositionedJSON])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// One `"key": value` pair; `line` is the line of the key.
    public struct Member: Sendable {
        public var key: String
        public var line: Int
        public var value: PositionedJSON
    }

    public var value: Value
    /// 1-based line where the value starts.
    public var line: Int

    /// What a user would call this kind of value, for "must be a number, found a string" messages.
    public var kindName: String {
        switch value {
        case .object: "an object"
        case .array: "a list"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true/false"
        case .null: "null"
        }
    }

    /// Parses a whole document. Throws `PositionedJSONSyntaxError` at the first mistake.
    public static func parse(_ bytes: [UInt8]) throws(PositionedJSONSyntaxError) -> PositionedJSON {
        var parser = PositionedJSONParser(bytes: bytes)
        return try parser.parseDocument()
    }
}

/// A JSON syntax error and its position (1-based line and column).
public struct PositionedJSONSyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var message: String
}

/// Recursive-descent parser over UTF-8 bytes. Nesting is limited so a hostile file cannot
/// exhaust the stack.
private struct PositionedJSONParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    static let maximumDepth = 64

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is harmless; skip it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    mutating func parseDocument() throws(PositionedJSONSyntaxError) -> PositionedJSON {
        skipWhitespace()
        if index >= bytes.count { throw error("the file is empty") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describeCurrent()) after the end of the document") }
        return value
    }

    private func error(_ message: String) -> PositionedJSONSyntaxError {
        PositionedJSONSyntaxError(line: line, column: index - lineStart + 1, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(PositionedJSONSyntaxError) -> PositionedJSON {
        skipWhitespace()
        guard index < bytes.count else { throw error("the file ends where a value was expected") }
        let startLine = line
        switch bytes[index] {
        case UInt8(ascii: "{"): return PositionedJSON(value: try parseObject(), line: startLine)
        case UInt8(ascii: "["): return PositionedJSON(value: try parseArray(), line: startLine)
        case UInt8(ascii: "\""): return PositionedJSON(value: .string(try parseString()), line: startLine)
        case UInt8(ascii: "t"): try expectWord("true"); return PositionedJSON(value: .bool(true), line: startLine)
        case UInt8(ascii: "f"): try expectWord("false"); return PositionedJSON(value: .bool(false), line: startLine)
        case UInt8(ascii: "n"): try expectWord("null"); return PositionedJSON(value: .null, line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return PositionedJSON(value: .number(try parseNumber()), line: startLine)
        default:
            throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func enterNesting() throws(PositionedJSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(PositionedJSONSyntaxError) -> PositionedJSON.Value {
        try enterNesting()
        defer { depth -= 1 }
        index += 1  // {
        var members: [PositionedJSON.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes, found \(describeCurrent())")
            }
            let keyLine = line
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            let value = try parseValue()
            members.append(PositionedJSON.Member(key: key, line: keyLine, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("the file ends inside an object (missing '}')") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    throw error("a ',' before '}' (trailing commas are not allowed)")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(PositionedJSONSyntaxError) -> PositionedJSON.Value {
        try enterNesting()
        defer { depth -= 1 }
        index += 1  // [
        var elements: [PositionedJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("the file ends inside a list (missing ']')") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    throw error("a ',' before ']' (trailing commas are not allowed)")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            throw error("expected ',' or ']' in a list, found \(describeCurrent())")
        }
    }

    private mutating func expectWord(_ word: String) throws(PositionedJSONSyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count,
              Array(bytes[index..<(index + expected.count)]) == expected else {
            throw error("expected a value, found \(describeCurrent())")
        }
        index += expected.count
    }

    private mutating func parseNumber() throws(PositionedJSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a '-' must be followed by digits") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw error("numbers may not start with 0")
        }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a '.' must be followed by digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("an exponent must have digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw error("the number \(text) is out of range") }
        return number
    }

    private mutating func parseString() throws(PositionedJSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while true {
            guard index < bytes.count else { throw error("the file ends inside a string (missing '\"')") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard appendRun(from: runStart, to: index, into: &scalars) else { throw error("a string is not valid UTF-8") }
                index += 1
                return String(scalars)
            }
            if byte < 0x20 {
                throw error(byte == 0x0A ? "a string runs past the end of the line (missing '\"')"
                                         : "a control character inside a string")
            }
            if byte == UInt8(ascii: "\\") {
                guard appendRun(from: runStart, to: index, into: &scalars) else { throw error("a string is not valid UTF-8") }
                index += 1
                guard index < bytes.count else { throw error("the file ends inside a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHexQuad()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("an unpaired UTF-16 surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try parseHexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("an unpaired UTF-16 surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = UnicodeScalar(code) else { throw error("an invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    index -= 1
                    throw error("an unknown escape '\\\(Character(UnicodeScalar(escape)))' in a string")
                }
                runStart = index
                continue
            }
            index += 1
        }
    }

    /// Appends the unescaped bytes `from..<to` to `scalars`; false when they are not valid UTF-8.
    private func appendRun(from start: Int, to end: Int, into scalars: inout String.UnicodeScalarView) -> Bool {
        guard start < end else { return true }
        guard let text = String(validating: bytes[start..<end], as: UTF8.self) else { return false }
        scalars.append(contentsOf: text.unicodeScalars)
        return true
    }

    private mutating func parseHexQuad() throws(PositionedJSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape needs four hex digits")
            }
            code = code * 16 + digit
            index += 1
        }
        return code
    }
}
