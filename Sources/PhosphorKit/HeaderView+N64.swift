/// The Nintendo 64 cartridge header: the word 0x80371240 (PI bus timing) at offset 0 and a
/// 20-byte title at 0x20, in one of three byte orders dumpers use.
extension HeaderView {
    /// How a dump stores the ROM's big-endian bytes.
    enum N64ByteOrder: CaseIterable {
        /// `.z64`: as the cartridge holds them (80 37 12 40).
        case bigEndian
        /// `.v64`: each 16-bit pair swapped (37 80 40 12).
        case byteSwapped
        /// `.n64`: each 32-bit word reversed (40 12 37 80).
        case littleEndian

        var firstWord: [UInt8] {
            switch self {
            case .bigEndian: [0x80, 0x37, 0x12, 0x40]
            case .byteSwapped: [0x37, 0x80, 0x40, 0x12]
            case .littleEndian: [0x40, 0x12, 0x37, 0x80]
            }
        }

        /// Where the big-endian byte at `offset` sits in a dump of this order.
        func storedOffset(_ offset: Int) -> Int {
            switch self {
            case .bigEndian: offset
            case .byteSwapped: offset ^ 1
            case .littleEndian: offset ^ 3
            }
        }
    }

    /// The 64-byte header and the 4 KB boot code every cartridge starts with.
    static let n64MinimumSize = 0x1000

    var n64ByteOrder: N64ByteOrder? {
        N64ByteOrder.allCases.first { Array(slice(0, 4)) == $0.firstWord }
    }

    var n64Info: RomInfo? {
        guard let order = n64ByteOrder else { return nil }
        let title = (0x20..<0x34).map { self[order.storedOffset($0)] }
        return RomInfo(system: .n64, title: RomInspector.headerTitle(title))
    }
}
