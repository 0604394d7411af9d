import Foundation
import PhosphorKit

/// One file's record in a zip's central directory: what the archive says about an entry
/// without its data being read. Sizes and CRC are those of the uncompressed entry.
public struct ZipDirectoryEntry: Sendable, Equatable {
    /// The name as stored: UTF-8 when the archive says so (flag bit 11, or an Info-ZIP Unicode
    /// Path field whose checksum matches), else the raw bytes read as UTF-8 with repairs.
    public let path: String
    public let crc32: UInt32
    public let compressedSize: UInt64
    public let size: UInt64
    /// 0 stored, 8 deflate, ...
    public let method: UInt16
    public let flags: UInt16
    public let localHeaderOffset: UInt64

    public var isEncrypted: Bool { flags & 1 != 0 }
    public var isDirectory: Bool { path.hasSuffix("/") }
}

/// Reads a zip's central directory (PKWARE APPNOTE 4.3.12 to 4.3.16, zip64 included) from the
/// end of the file: a few `pread`s, no entry data. The scanner takes entries' CRCs from here
/// instead of inflating them. Damaged or cut-short files throw `ArchiveError.damagedDirectory`
/// (one line); nothing is written. Any thread.
public enum ZipDirectory {
    /// The end-of-central-directory record, without its comment.
    static let endRecordSize = 22
    static let zip64LocatorSize = 20
    static let zip64EndRecordSize = 56
    static let entryHeaderSize = 46

    public static func entries(of archive: URL) throws -> [ZipDirectoryEntry] {
        try PositionalReader.withFile(archive, damaged: { .damagedDirectory(archive: archive.path, reason: $0) }) { file in
            try Reader(file: file).entries()
        }
    }

    /// One open zip, with the bounds checks every field needs.
    struct Reader {
        let file: PositionalReader
        var size: UInt64 { file.size }

        func damaged(_ reason: String) -> ArchiveError { file.damaged(reason) }

        func bytes(at offset: UInt64, count: Int, what: String) throws -> [UInt8] {
            try file.bytes(at: offset, count: count, what: what)
        }

        func entries() throws -> [ZipDirectoryEntry] {
            let (count, directoryOffset, directorySize) = try locateDirectory()
            // Each record is at least 46 bytes: a count the directory cannot hold is a lie, and
            // must not size an allocation.
            guard count <= directorySize / UInt64(entryHeaderSize) else {
                throw damaged("the directory claims \(count) entries but has room for \(directorySize / UInt64(entryHeaderSize))")
            }
            let directory = try bytes(at: directoryOffset, count: Int(directorySize), what: "central directory")
            var entries: [ZipDirectoryEntry] = []
            entries.reserveCapacity(Int(count))
            var position = 0
            for index in 0..<Int(count) {
                let (entry, next) = try record(in: directory, at: position, number: index + 1, of: Int(count))
                entries.append(entry)
                position = next
            }
            return entries
        }

        /// Entry count, offset and size of the central directory, from the (zip64) end record.
        func locateDirectory() throws -> (count: UInt64, offset: UInt64, size: UInt64) {
            guard size >= UInt64(endRecordSize) else {
                throw damaged("\(size) bytes is too short for a zip (no end of central directory record)")
            }
            // The end record sits in the last 22 bytes plus a comment of up to 65 535 bytes.
            let tailLength = Int(min(size, UInt64(endRecordSize + 0xFFFF)))
            let tailStart = size - UInt64(tailLength)
            let tail = try bytes(at: tailStart, count: tailLength, what: "end of the file")
            var found: Int?
            var candidate = tailLength - endRecordSize
            while candidate >= 0 {
                if Self.uint32(tail, candidate) == 0x0605_4B50,
                   candidate + endRecordSize + Int(Self.uint16(tail, candidate + 20)) <= tailLength {
                    found = candidate
                    break
                }
                candidate -= 1
            }
            guard let end = found else { throw damaged("no end of central directory record: cut short, or not a zip") }
            let endOffset = tailStart + UInt64(end)
            let disk = Self.uint16(tail, end + 4), directoryDisk = Self.uint16(tail, end + 6)
            var count = UInt64(Self.uint16(tail, end + 10))
            var directorySize = UInt64(Self.uint32(tail, end + 12))
            var directoryOffset = UInt64(Self.uint32(tail, end + 16))
            var directoryEnd = endOffset
            if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
                // zip64: a locator just before the end record points at the zip64 end record.
                guard endOffset >= UInt64(zip64LocatorSize) else { throw damaged("zip64 marker without a zip64 locator") }
                let locator = try bytes(at: endOffset - UInt64(zip64LocatorSize), count: zip64LocatorSize, what: "zip64 locator")
                guard Self.uint32(locator, 0) == 0x0706_4B50 else { throw damaged("zip64 marker without a zip64 locator") }
                let recordOffset = Self.uint64(locator, 8)
                let record = try bytes(at: recordOffset, count: zip64EndRecordSize, what: "zip64 end record")
                guard Self.uint32(record, 0) == 0x0606_4B50 else { throw damaged("no zip64 end record at offset \(recordOffset)") }
                guard Self.uint32(record, 16) == 0, Self.uint32(record, 20) == 0 else {
                    throw damaged("split (multi-volume) archives are not read")
                }
                count = Self.uint64(record, 32)
                directorySize = Self.uint64(record, 40)
                directoryOffset = Self.uint64(record, 48)
                directoryEnd = recordOffset
            } else if disk != 0 || directoryDisk != 0 {
                throw damaged("split (multi-volume) archives are not read")
            }
            guard directoryOffset <= directoryEnd, directorySize <= directoryEnd - directoryOffset else {
                throw damaged("the central directory (offset \(directoryOffset), \(directorySize) bytes) runs past its end record at \(directoryEnd): cut short?")
            }
            return (count, directoryOffset, directorySize)
        }

        /// The record at `position` in the directory, and where the next one starts.
        func record(in directory: [UInt8], at position: Int, number: Int, of count: Int) throws -> (ZipDirectoryEntry, Int) {
            let what = "entry \(number) of \(count)"
            guard position + entryHeaderSize <= directory.count else { throw damaged("\(what) runs past the end of the directory") }
            guard Self.uint32(directory, position) == 0x0201_4B50 else { throw damaged("\(what) has no central directory signature") }
            let flags = Self.uint16(directory, position + 8)
            let method = Self.uint16(directory, position + 10)
            let crc = Self.uint32(directory, position + 16)
            var compressedSize = UInt64(Self.uint32(directory, position + 20))
            var size = UInt64(Self.uint32(directory, position + 24))
            let nameLength = Int(Self.uint16(directory, position + 28))
            let extraLength = Int(Self.uint16(directory, position + 30))
            let commentLength = Int(Self.uint16(directory, position + 32))
            var localHeaderOffset = UInt64(Self.uint32(directory, position + 42))
            let nameStart = position + entryHeaderSize
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= directory.count else { throw damaged("\(what): its name and fields run past the end of the directory") }
            let rawName = Array(directory[nameStart..<extraStart])
            var unicodeName: String?
            // Extra fields: 2-byte id, 2-byte length, data.
            var field = extraStart
            let extraEnd = extraStart + extraLength
            while field + 4 <= extraEnd {
                let id = Self.uint16(directory, field), length = Int(Self.uint16(directory, field + 2))
                let data = field + 4
                guard data + length <= extraEnd else { throw damaged("\(what): an extra field runs past its entry") }
                if id == 0x0001 {
                    // zip64 extended information: only the fields whose 32-bit value is all ones, in this order.
                    var cursor = data
                    func wide(_ value: inout UInt64) throws {
                        guard value == 0xFFFF_FFFF else { return }
                        guard cursor + 8 <= data + length else { throw damaged("\(what): zip64 field too short") }
                        value = Self.uint64(directory, cursor)
                        cursor += 8
                    }
                    try wide(&size)
                    try wide(&compressedSize)
                    try wide(&localHeaderOffset)
                } else if id == 0x7075, length >= 5, directory[data] == 1,
                          Self.uint32(directory, data + 1) == CRC32.checksum(rawName) {
                    // Info-ZIP Unicode Path: used only when it still describes the stored name.
                    unicodeName = String(decoding: directory[(data + 5)..<(data + length)], as: UTF8.self)
                }
                field = data + length
            }
            guard localHeaderOffset < self.size else {
                throw damaged("\(what): its data at offset \(localHeaderOffset) is past the end of the file (\(self.size) bytes)")
            }
            let path = unicodeName ?? String(decoding: rawName, as: UTF8.self)
            return (ZipDirectoryEntry(path: path, crc32: crc, compressedSize: compressedSize, size: size,
                                      method: method, flags: flags, localHeaderOffset: localHeaderOffset), next)
        }

        static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
            UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        }

        static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
            UInt32(uint16(bytes, offset)) | UInt32(uint16(bytes, offset + 2)) << 16
        }

        static func uint64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
            UInt64(uint32(bytes, offset)) | UInt64(uint32(bytes, offset + 4)) << 32
        }
    }
}
