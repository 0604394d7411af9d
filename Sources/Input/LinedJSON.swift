/// A small JSON reader that remembers the line of every value and object key, so a bad key-map
/// file can be reported as `file:line` (Foundation's JSON readers give no positions).
/// Strict RFC 8259 JSON; nesting is limited to 64 levels.
struct LinedJSON {
    indirect enum Value {
        case object([Member])
        case array([Node])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    struct Node {
        var value: Value
        var line: Int
    }

    struct Member {
        var key: String
        var line: Int
        var value: Node
    }

    struct SyntaxError: Error, Equatable {
        var line: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

    private init(_ text: String) {
        bytes = Array(text.utf8)
    }

    static func parse(_ text: String) throws(SyntaxError) -> Node {
        var reader = LinedJSON(text)
        reader.skipWhitespace()
        let node = try reader.value(depth: 0)
        reader.skipWhitespace()
        if reader.position < reader.bytes.count { throw reader.error("unexpected text after the end of the JSON value") }
        return node
    }

    /// Parses a file whose top level must be an object, with errors as `KeyMapFileError`s.
    static func parseObject(_ text: String) throws(KeyMapFileError) -> [Member] {
        let root: Node
        do {
            root = try parse(text)
        } catch {
            throw KeyMapFileError(line: error.line, message: "not valid JSON: \(error.message)")
        }
        guard case .object(let members) = root.value else {
            throw KeyMapFileError(line: root.line, message: "the file must hold one JSON object { ... }")
        }
        return members
    }

    private func error(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x0A: line += 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            position += 1
        }
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func value(depth: Int) throws(SyntaxError) -> Node {
        guard depth < 64 else { throw error("nested too deeply") }
        let startLine = line
        guard let byte = current else { throw error("unexpected end of file") }
        switch byte {
        case UInt8(ascii: "{"): return Node(value: try object(depth: depth), line: startLine)
        case UInt8(ascii: "["): return Node(value: try array(depth: depth), line: startLine)
        case UInt8(ascii: "\""): return Node(value: .string(try string()), line: startLine)
        case UInt8(ascii: "t"): try literal("true"); return Node(value: .bool(true), line: startLine)
        case UInt8(ascii: "f"): try literal("false"); return Node(value: .bool(false), line: startLine)
        case UInt8(ascii: "n"): try literal("null"); return Node(value: .null, line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return Node(value: try number(), line: startLine)
        default: throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let expected = Array(word.utf8)
        guard position + expected.count <= bytes.count,
              Array(bytes[position..<position + expected.count]) == expected else {
            throw error("unexpected word (expected \(word))")
        }
        position += expected.count
    }

    private mutating func number() throws(SyntaxError) -> Value {
        let start = position
        while let byte = current, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || (0x30...0x39).contains(byte) {
            position += 1
        }
        guard let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            throw error("malformed number")
        }
        return .number(number)
    }

    private mutating func string() throws(SyntaxError) -> String {
        position += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flushRaw() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flushRaw()
                return String(scalars)
            case 0x00..<0x20:
                throw error("control character in a string (a missing closing quote?)")
            case UInt8(ascii: "\\"):
                flushRaw()
                guard let escaped = current else { throw error("unterminated string") }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    if (0xD800...0xDBFF).contains(code), current == UInt8(ascii: "\\"),
                       position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hexQuad()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low & 0x3FF)
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default:
                    throw error("unknown escape '\\\(Character(Unicode.Scalar(escaped)))' in a string")
                }
            default:
                raw.append(byte)
            }
        }
    }

    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count,
              let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
            throw error("malformed \\u escape")
        }
        position += 4
        return value
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> Value {
        position += 1
        var elements: [Node] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw error("expected ',' or ']' in a list")
            }
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> Value {
        position += 1
        var members: [Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted name") }
            let keyLine = line
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after \"\(key)\"") }
            position += 1
            skipWhitespace()
            members.append(Member(key: key, line: keyLine, value: try value(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw error("expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }
}
