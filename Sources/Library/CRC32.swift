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

    /// The CRC of B from the CRC of A followed by B, the CRC of A, and B's length: the zip
    /// directory's CRC covers a copier header that the library's CRC leaves out. CRC-32 is
    /// linear over GF(2): crc(A‖B) = crc(A)·x^(8·|B|) mod P ⊕ crc(B).
    public static func checksumOfSuffix(whole: UInt32, prefix: UInt32, suffixLength: Int) -> UInt32 {
        whole ^ multiplyModP(prefix, xPowerModP(bits: UInt64(suffixLength) * 8))
    }

    /// a·b mod P, both polynomials in CRC-32's reflected bit order (x^0 is the top bit).
    static func multiplyModP(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var product: UInt32 = 0
        var factor = b
        var bit: UInt32 = 1 << 31
        while bit != 0 {
            if a & bit != 0 { product ^= factor }
            factor = factor & 1 != 0 ? (factor >> 1) ^ 0xEDB8_8320 : factor >> 1
            bit >>= 1
        }
        return product
    }

    /// x^bits mod P, by repeated squaring.
    static func xPowerModP(bits: UInt64) -> UInt32 {
        var result: UInt32 = 1 << 31   // x^0
        var square: UInt32 = 1 << 30   // x^1
        var exponent = bits
        while exponent != 0 {
            if exponent & 1 != 0 { result = multiplyModP(result, square) }
            square = multiplyModP(square, square)
            exponent >>= 1
        }
        return result
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
