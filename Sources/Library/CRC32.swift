/// CRC-32 (IEEE 802.3, the one zip and No-Intro use), computed incrementally.
/// Slicing-by-8 (eight 256-entry tables, eight bytes per step) so hashing a library is bound by
/// the disk, not the checksum. A value type: feed bytes with `update`, read `value` at any point.
/// Any thread.
public struct CRC32: Sendable, Equatable {
    private var state: UInt32 = 0xFFFF_FFFF

    public init() {}

    /// The CRC of everything fed so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = state
        CRC32.tables.withUnsafeBufferPointer { table in
            let count = buffer.count
            var index = 0
            while count - index >= 8 {
                let low = buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                let high = buffer.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int(high >> 8 & 0xFF)]
                    ^ table[256 + Int(high >> 16 & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        state = crc
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil { update(Array(bytes)) }
    }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// tables[k * 256 + i]: the CRC of byte i followed by k zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var entry = UInt32(index)
            for _ in 0..<8 { entry = entry & 1 != 0 ? (entry >> 1) ^ 0xEDB8_8320 : entry >> 1 }
            tables[index] = entry
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
