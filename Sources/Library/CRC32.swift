/// CRC-32 (IEEE 802.3, the one zip and No-Intro use), computed incrementally with a 256-entry table.
/// A value type: feed bytes with `update`, read `value` at any point. Any thread.
public struct CRC32: Sendable, Equatable {
    private var state: UInt32 = 0xFFFF_FFFF

    public init() {}

    /// The CRC of everything fed so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var crc = state
        for byte in bytes {
            crc = CRC32.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        state = crc
    }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var entry = UInt32(index)
        for _ in 0..<8 { entry = entry & 1 != 0 ? (entry >> 1) ^ 0xEDB8_8320 : entry >> 1 }
        return entry
    }
}
