import Foundation

/// One value of the MessagePack subset RetroArch's databases are written in (libretro-db's
/// "rmsgpack": no floats, no extension types).
public enum MessagePackValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case string(String)
    case binary([UInt8])
    case array([MessagePackValue])
    case map([(key: MessagePackValue, value: MessagePackValue)])

    public static func == (lhs: MessagePackValue, rhs: MessagePackValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.binary(let a), .binary(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value under the string key `key` of a map; nil for other values or a missing key.
    public subscript(key: String) -> MessagePackValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .string(key) }?.value
    }

    /// A non-negative integer, whichever way it was written.
    public var unsignedValue: UInt64? {
        switch self {
        case .uint(let value): value
        case .int(let value) where value >= 0: UInt64(value)
        default: nil
        }
    }
}

/// Why bytes are not MessagePack.
public enum MessagePackError: Error, Equatable, CustomStringConvertible {
    case truncated(offset: Int)
    case unsupportedType(UInt8, offset: Int)
    case tooDeep(offset: Int)

    public var description: String {
        switch self {
        case .truncated(let offset): "cut short at byte \(offset)"
        case .unsupportedType(let type, let offset): String(format: "unknown value type 0x%02X at byte %d", type, offset)
        case .tooDeep(let offset): "values nested too deep at byte \(offset)"
        }
    }
}

/// Reads MessagePack values one after another from bytes in memory. Every length is checked
/// against what is left, so a truncated or corrupt file throws instead of reading past its end.
/// Multi-byte numbers are big-endian, as MessagePack has them. Any thread (a value).
public struct MessagePackReader {
    public let bytes: [UInt8]
    /// The next byte to read.
    public var offset: Int

    /// Nesting deeper than this is corruption (RetroArch's records are maps of scalars), and
    /// stopping keeps a hostile file from exhausting the stack.
    static let maximumDepth = 32

    public init(bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var isAtEnd: Bool { offset >= bytes.count }

    public mutating func readValue() throws(MessagePackError) -> MessagePackValue {
        try readValue(depth: 0)
    }

    private mutating func readValue(depth: Int) throws(MessagePackError) -> MessagePackValue {
        guard depth < Self.maximumDepth else { throw .tooDeep(offset: offset) }
        let start = offset
        let type = try readByte()
        switch type {
        case 0x00...0x7F: return .uint(UInt64(type))
        case 0x80...0x8F: return try readMap(count: Int(type & 0x0F), depth: depth)
        case 0x90...0x9F: return try readArray(count: Int(type & 0x0F), depth: depth)
        case 0xA0...0xBF: return .string(try readString(length: Int(type & 0x1F)))
        case 0xC0: return .null
        case 0xC2: return .bool(false)
        case 0xC3: return .bool(true)
        case 0xC4, 0xC5, 0xC6: return .binary(try readBytes(Int(try readUnsigned(byteCount: 1 << Int(type - 0xC4)))))
        case 0xCC, 0xCD, 0xCE, 0xCF: return .uint(try readUnsigned(byteCount: 1 << Int(type - 0xCC)))
        case 0xD0, 0xD1, 0xD2, 0xD3: return .int(try readSigned(byteCount: 1 << Int(type - 0xD0)))
        case 0xD9, 0xDA, 0xDB: return .string(try readString(length: Int(try readUnsigned(byteCount: 1 << Int(type - 0xD9)))))
        case 0xDC, 0xDD: return try readArray(count: Int(try readUnsigned(byteCount: type == 0xDC ? 2 : 4)), depth: depth)
        case 0xDE, 0xDF: return try readMap(count: Int(try readUnsigned(byteCount: type == 0xDE ? 2 : 4)), depth: depth)
        case 0xE0...0xFF: return .int(Int64(Int8(bitPattern: type)))
        default: throw .unsupportedType(type, offset: start)
        }
    }

    private mutating func readMap(count: Int, depth: Int) throws(MessagePackError) -> MessagePackValue {
        // Each pair takes two bytes at least: a count larger than what is left is corruption.
        guard count <= (bytes.count - offset) / 2 else { throw .truncated(offset: bytes.count) }
        var pairs: [(key: MessagePackValue, value: MessagePackValue)] = []
        pairs.reserveCapacity(count)
        for _ in 0..<count {
            let key = try readValue(depth: depth + 1)
            pairs.append((key, try readValue(depth: depth + 1)))
        }
        return .map(pairs)
    }

    private mutating func readArray(count: Int, depth: Int) throws(MessagePackError) -> MessagePackValue {
        guard count <= bytes.count - offset else { throw .truncated(offset: bytes.count) }
        var values: [MessagePackValue] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try readValue(depth: depth + 1)) }
        return .array(values)
    }

    private mutating func readByte() throws(MessagePackError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func readBytes(_ count: Int) throws(MessagePackError) -> [UInt8] {
        guard count <= bytes.count - offset else { throw .truncated(offset: bytes.count) }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// Invalid UTF-8 (a database written by another tool) is repaired, not refused.
    private mutating func readString(length: Int) throws(MessagePackError) -> String {
        String(decoding: try readBytes(length), as: UTF8.self)
    }

    private mutating func readUnsigned(byteCount: Int) throws(MessagePackError) -> UInt64 {
        guard byteCount <= bytes.count - offset else { throw .truncated(offset: bytes.count) }
        var value: UInt64 = 0
        for index in offset..<(offset + byteCount) { value = value << 8 | UInt64(bytes[index]) }
        offset += byteCount
        return value
    }

    private mutating func readSigned(byteCount: Int) throws(MessagePackError) -> Int64 {
        let raw = try readUnsigned(byteCount: byteCount)
        // Sign-extend from the value's own width.
        let shift = UInt64(64 - byteCount * 8)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }
}
