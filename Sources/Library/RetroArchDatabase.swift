import Foundation
import PhosphorKit

/// Why a file is not a readable RetroArch database.
public enum RetroArchDatabaseError: Error, Equatable, CustomStringConvertible {
    case notADatabase
    case badMetadataOffset(UInt64, size: Int)
    case badRecord(index: Int, MessagePackError)
    case recordNotAMap(index: Int)
    case countMismatch(declared: UInt64, found: Int)

    public var description: String {
        switch self {
        case .notADatabase: "not a RetroArch database (no RARCHDB header)"
        case .badMetadataOffset(let offset, let size): "its metadata offset \(offset) lies outside its \(size) bytes"
        case .badRecord(let index, let error): "record \(index + 1): \(error)"
        case .recordNotAMap(let index): "record \(index + 1) is not a map"
        case .countMismatch(let declared, let found): "it declares \(declared) records but holds \(found)"
        }
    }
}

/// A RetroArch game database (`database/rdb/<System>.rdb`), in libretro-db's layout: the
/// 8-byte magic "RARCHDB\0", the big-endian 64-bit offset of the metadata, the records as
/// MessagePack maps one after another ending with a nil, then the metadata, a map whose
/// "count" is the number of records (index tables may follow; they are not needed here).
///
/// Only what thumbnails need is kept: the game's database name ("name", which RetroArch names
/// thumbnails after), its ROM file name ("rom_name") and its CRC-32 ("crc", four bytes,
/// most significant first). Any thread (values).
public struct RetroArchDatabase: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var romName: String?
        public var crc32: UInt32?

        public init(name: String, romName: String? = nil, crc32: UInt32? = nil) {
            self.name = name
            self.romName = romName
            self.crc32 = crc32
        }
    }

    public static let magic: [UInt8] = Array("RARCHDB".utf8) + [0]
    /// Magic plus the metadata offset.
    public static let headerSize = 16

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    public init(contentsOf file: URL) throws {
        try self.init(bytes: [UInt8](try Data(contentsOf: file)))
    }

    /// Parses a whole file. A truncated or corrupt one throws (nothing of it is used: half a
    /// database would hide the rest's art without saying so).
    public init(bytes: [UInt8]) throws(RetroArchDatabaseError) {
        guard bytes.count >= Self.headerSize, Array(bytes[0..<8]) == Self.magic else { throw .notADatabase }
        let metadataOffset = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard metadataOffset >= UInt64(Self.headerSize), metadataOffset < UInt64(bytes.count) else {
            throw .badMetadataOffset(metadataOffset, size: bytes.count)
        }
        var reader = MessagePackReader(bytes: bytes, offset: Self.headerSize)
        var entries: [Entry] = []
        var records = 0
        while true {
            let value: MessagePackValue
            do { value = try reader.readValue() } catch { throw .badRecord(index: records, error) }
            if value == .null { break }
            guard case .map = value else { throw .recordNotAMap(index: records) }
            records += 1
            if let entry = Self.entry(value) { entries.append(entry) }
        }
        // The declared count catches records lost to damage that still parses as MessagePack.
        var metadata = MessagePackReader(bytes: bytes, offset: Int(metadataOffset))
        let declared: UInt64?
        do { declared = try metadata.readValue()["count"]?.unsignedValue } catch { throw .badRecord(index: records, error) }
        if let declared, declared != UInt64(records) { throw .countMismatch(declared: declared, found: records) }
        self.entries = entries
    }

    /// The fields of one record; nil when it has no name (nothing to name a thumbnail after).
    static func entry(_ record: MessagePackValue) -> Entry? {
        guard case .string(let name)? = record["name"], !name.isEmpty else { return nil }
        var entry = Entry(name: name)
        if case .string(let romName)? = record["rom_name"], !romName.isEmpty { entry.romName = romName }
        if case .binary(let crc)? = record["crc"], crc.count == 4 {
            entry.crc32 = crc.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        return entry
    }
}
