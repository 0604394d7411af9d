import Foundation
@testable import Library

/// Writes MessagePack values and RetroArch databases for tests, from the formats (MessagePack's
/// spec and libretro-db's layout), independently of the reader under test. Each value takes its
/// smallest encoding unless `wide` asks for the 32-bit map and string headers RetroArch's own
/// writer uses for larger maps.
struct MessagePackWriter {
    var bytes: [UInt8] = []
    var wide = false

    mutating func write(_ value: MessagePackValue) {
        switch value {
        case .null: bytes.append(0xC0)
        case .bool(let flag): bytes.append(flag ? 0xC3 : 0xC2)
        case .uint(let number):
            if number < 0x80 { bytes.append(UInt8(number)) }
            else if number <= 0xFF { bytes += [0xCC, UInt8(number)] }
            else if number <= 0xFFFF { bytes.append(0xCD); bigEndian(number, count: 2) }
            else if number <= 0xFFFF_FFFF { bytes.append(0xCE); bigEndian(number, count: 4) }
            else { bytes.append(0xCF); bigEndian(number, count: 8) }
        case .int(let number):
            if number >= -32 && number < 0 { bytes.append(UInt8(bitPattern: Int8(number))) }
            else if number >= Int64(Int8.min) && number <= Int64(Int8.max) { bytes += [0xD0, UInt8(bitPattern: Int8(number))] }
            else if number >= Int64(Int16.min) && number <= Int64(Int16.max) { bytes.append(0xD1); bigEndian(UInt64(bitPattern: number), count: 2) }
            else if number >= Int64(Int32.min) && number <= Int64(Int32.max) { bytes.append(0xD2); bigEndian(UInt64(bitPattern: number), count: 4) }
            else { bytes.append(0xD3); bigEndian(UInt64(bitPattern: number), count: 8) }
        case .string(let text):
            let utf8 = Array(text.utf8)
            if utf8.count < 32 && !wide { bytes.append(0xA0 | UInt8(utf8.count)) }
            else if utf8.count <= 0xFF && !wide { bytes += [0xD9, UInt8(utf8.count)] }
            else if utf8.count <= 0xFFFF && !wide { bytes.append(0xDA); bigEndian(UInt64(utf8.count), count: 2) }
            else { bytes.append(0xDB); bigEndian(UInt64(utf8.count), count: 4) }
            bytes += utf8
        case .binary(let data):
            if data.count <= 0xFF { bytes += [0xC4, UInt8(data.count)] }
            else if data.count <= 0xFFFF { bytes.append(0xC5); bigEndian(UInt64(data.count), count: 2) }
            else { bytes.append(0xC6); bigEndian(UInt64(data.count), count: 4) }
            bytes += data
        case .array(let values):
            if values.count < 16 { bytes.append(0x90 | UInt8(values.count)) }
            else if values.count <= 0xFFFF { bytes.append(0xDC); bigEndian(UInt64(values.count), count: 2) }
            else { bytes.append(0xDD); bigEndian(UInt64(values.count), count: 4) }
            values.forEach { write($0) }
        case .map(let pairs):
            if pairs.count < 16 && !wide { bytes.append(0x80 | UInt8(pairs.count)) }
            else if pairs.count <= 0xFFFF && !wide { bytes.append(0xDE); bigEndian(UInt64(pairs.count), count: 2) }
            else { bytes.append(0xDF); bigEndian(UInt64(pairs.count), count: 4) }
            for pair in pairs {
                write(pair.key)
                write(pair.value)
            }
        }
    }

    private mutating func bigEndian(_ value: UInt64, count: Int) {
        for index in (0..<count).reversed() { bytes.append(UInt8(value >> (8 * UInt64(index)) & 0xFF)) }
    }
}

/// A database record the way RetroArch's converter writes one: name, description, rom_name,
/// size, crc (4 bytes, most significant first), md5, serial.
func databaseRecord(name: String, romName: String? = nil, crc: UInt32? = nil, size: UInt64 = 32768) -> MessagePackValue {
    var pairs: [(key: MessagePackValue, value: MessagePackValue)] = [
        (.string("name"), .string(name)),
        (.string("description"), .string(name)),
    ]
    if let romName { pairs.append((.string("rom_name"), .string(romName))) }
    pairs.append((.string("size"), .uint(size)))
    if let crc { pairs.append((.string("crc"), .binary((0..<4).map { UInt8(crc >> (24 - 8 * UInt32($0)) & 0xFF) }))) }
    pairs.append((.string("md5"), .binary([UInt8](repeating: 0xAB, count: 16))))
    pairs.append((.string("serial"), .binary(Array("DMG-ABCD".utf8))))
    return .map(pairs)
}

/// A whole `.rdb`: magic, metadata offset, records, the nil that ends them, {"count": n}.
/// `declaredCount` overrides the count (a damaged file).
func retroArchDatabase(_ records: [MessagePackValue], declaredCount: Int? = nil, wide: Bool = false) -> [UInt8] {
    var body = MessagePackWriter(wide: wide)
    records.forEach { body.write($0) }
    body.write(.null)
    let metadataOffset = UInt64(16 + body.bytes.count)
    var metadata = MessagePackWriter()
    metadata.write(.map([(.string("count"), .uint(UInt64(declaredCount ?? records.count)))]))
    let offsetBytes = (0..<8).map { UInt8(metadataOffset >> (56 - 8 * UInt64($0)) & 0xFF) }
    return Array("RARCHDB".utf8) + [0] + offsetBytes + body.bytes + metadata.bytes
}
