internal import CLzma
import Foundation
import PhosphorKit

/// One file's record in a 7z archive's header: what the archive says about an entry without
/// its data being unpacked. Size and CRC are those of the unpacked entry.
public struct SevenZipDirectoryEntry: Sendable, Equatable {
    /// The name as stored (UTF-16LE in the archive, repaired where it is not valid).
    public let path: String
    public let size: UInt64
    /// nil when the archive stores no digest for the entry (and for empty files and folders).
    public let crc32: UInt32?
    public let isDirectory: Bool
    /// The folder (solid block) holding the entry's data; nil for empty files and folders.
    public let folder: Int?
}

/// Reads a 7z archive's own header (7-Zip's 7zFormat.txt): the signature header at the start
/// points at the header at the end, usually itself packed with LZMA ("encoded header"), which
/// lists folders, unpacked sizes, CRCs and file names. A few `pread`s and one small unpack; no
/// entry data. Damaged, cut-short or hostile files throw `ArchiveError.damagedSevenZipHeader`
/// (one line); every count is checked against the bytes that must hold it before it sizes
/// anything, and the header is refused past `headerSizeCap`. Any thread.
public enum SevenZipDirectory {
    static let signature: [UInt8] = [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]
    static let signatureHeaderSize = 32
    /// A header (packed or unpacked) larger than this is refused: 16 MiB names about 200 000 files.
    static let headerSizeCap = 16 << 20
    /// Nested encoded headers a real archive never has more than one of.
    static let encodingDepthCap = 4

    public static func entries(of archive: URL) throws -> [SevenZipDirectoryEntry] {
        try PositionalReader.withFile(archive, damaged: { .damagedSevenZipHeader(archive: archive.path, reason: $0) }) { file in
            try entries(in: file)
        }
    }

    static func entries(in file: PositionalReader) throws -> [SevenZipDirectoryEntry] {
        let start = try file.bytes(at: 0, count: signatureHeaderSize, what: "signature header")
        guard Array(start[0..<6]) == signature else { throw file.damaged("no 7z signature: not a 7z archive") }
        guard start[6] == 0 else { throw file.damaged("format version \(start[6]).\(start[7]) is not read") }
        var cursor = HeaderCursor(bytes: start, position: 8, damaged: file.damaged)
        let startCRC = try cursor.uint32()
        guard CRC32.checksum(start[12..<32]) == startCRC else { throw file.damaged("the signature header's CRC does not match") }
        let nextOffset = try cursor.uint64(), nextSize = try cursor.uint64(), nextCRC = try cursor.uint32()
        if nextSize == 0 { return [] }   // an archive with nothing in it
        guard nextSize <= UInt64(headerSizeCap) else { throw file.damaged("a \(nextSize)-byte header is past the \(headerSizeCap >> 20) MiB limit") }
        guard nextOffset <= file.size else { throw file.damaged("the header offset \(nextOffset) is past the end of the file: cut short?") }
        var header = try file.bytes(at: UInt64(signatureHeaderSize) + nextOffset, count: Int(nextSize), what: "header")
        guard CRC32.checksum(header) == nextCRC else { throw file.damaged("the header's CRC does not match: damaged or cut short") }
        for _ in 0...encodingDepthCap {
            var cursor = HeaderCursor(bytes: header, position: 0, damaged: file.damaged)
            switch try cursor.byte("header type") {
            case PropertyID.header:
                return try cursor.header()
            case PropertyID.encodedHeader:
                let streams = try cursor.streamsInfo()
                header = try unpackHeader(streams, from: file)
            case let other:
                throw file.damaged("the header starts with property \(other), not a header")
            }
        }
        throw file.damaged("more than \(encodingDepthCap) nested encoded headers")
    }

    /// The first folder of an encoded header's streams, unpacked: one LZMA, LZMA2 or copy coder.
    static func unpackHeader(_ streams: StreamsInfo, from file: PositionalReader) throws -> [UInt8] {
        guard let folder = streams.folders.first, let packSize = streams.packSizes.first else {
            throw file.damaged("the encoded header has no packed stream")
        }
        guard folder.coders.count == 1, let coder = folder.coders.first, coder.inStreams == 1, coder.outStreams == 1 else {
            throw file.damaged("the header is packed with \(folder.coders.count) chained coders (not read)")
        }
        let unpackSize = folder.unpackSize
        guard unpackSize <= UInt64(headerSizeCap), packSize <= UInt64(headerSizeCap) else {
            throw file.damaged("a \(max(unpackSize, packSize))-byte packed header is past the \(headerSizeCap >> 20) MiB limit")
        }
        let offset = UInt64(signatureHeaderSize).addingReportingOverflow(streams.packPosition)
        guard !offset.overflow else { throw file.damaged("the packed header's offset overflows") }
        let packed = try file.bytes(at: offset.partialValue, count: Int(packSize), what: "packed header")
        var unpacked = [UInt8](repeating: 0, count: Int(unpackSize))
        let filter: Int32
        switch coder.id {
        case [0x00]:
            guard packSize == unpackSize else { throw file.damaged("a stored header's sizes differ") }
            unpacked = packed
            filter = 0
        case [0x03, 0x01, 0x01]: filter = Int32(CLZMA_FILTER_LZMA1)
        case [0x21]: filter = Int32(CLZMA_FILTER_LZMA2)
        default:
            let method = coder.id.map { String(format: "%02X", $0) }.joined()
            throw file.damaged("the header is packed with method \(method) (encrypted, or not read)")
        }
        if filter != 0 {
            var failedFunction: UnsafePointer<CChar>?
            let result = coder.properties.withUnsafeBufferPointer { properties in
                packed.withUnsafeBufferPointer { source in
                    unpacked.withUnsafeMutableBufferPointer { destination in
                        clzma_raw_decode(filter, properties.baseAddress, properties.count, source.baseAddress, source.count,
                                         destination.baseAddress, destination.count, &failedFunction)
                    }
                }
            }
            if result != 0 {
                let function = failedFunction.map { String(cString: $0) } ?? "lzma_code"
                throw file.damaged("\(function) failed: \(String(cString: clzma_message(result)))")
            }
        }
        if let crc = folder.unpackCRC, CRC32.checksum(unpacked) != crc {
            throw file.damaged("the unpacked header's CRC does not match")
        }
        return unpacked
    }

    /// Property ids of 7zFormat.txt.
    enum PropertyID {
        static let end: UInt8 = 0x00
        static let header: UInt8 = 0x01
        static let archiveProperties: UInt8 = 0x02
        static let additionalStreamsInfo: UInt8 = 0x03
        static let mainStreamsInfo: UInt8 = 0x04
        static let filesInfo: UInt8 = 0x05
        static let packInfo: UInt8 = 0x06
        static let unpackInfo: UInt8 = 0x07
        static let subStreamsInfo: UInt8 = 0x08
        static let size: UInt8 = 0x09
        static let crc: UInt8 = 0x0A
        static let folder: UInt8 = 0x0B
        static let codersUnpackSize: UInt8 = 0x0C
        static let numUnpackStream: UInt8 = 0x0D
        static let emptyStream: UInt8 = 0x0E
        static let emptyFile: UInt8 = 0x0F
        static let name: UInt8 = 0x11
        static let attributes: UInt8 = 0x15
        static let encodedHeader: UInt8 = 0x17
    }

    struct Coder {
        let id: [UInt8]
        let inStreams: Int
        let outStreams: Int
        let properties: [UInt8]
    }

    /// A folder: coders chained by bind pairs, unpacked into one final stream.
    struct Folder {
        var coders: [Coder] = []
        /// (in stream, out stream) of each bind pair.
        var bindPairs: [(input: Int, output: Int)] = []
        var unpackSizes: [UInt64] = []
        var unpackCRC: UInt32?

        var outStreamCount: Int { coders.reduce(0) { $0 + $1.outStreams } }

        /// The size of the out stream no bind pair consumes: the folder's unpacked data.
        var unpackSize: UInt64 {
            for index in unpackSizes.indices where !bindPairs.contains(where: { $0.output == index }) {
                return unpackSizes[index]
            }
            return 0
        }
    }

    /// One unpacked stream of a folder: one file's data.
    struct SubStream {
        let folder: Int
        let size: UInt64
        var crc: UInt32?
    }

    struct StreamsInfo {
        var packPosition: UInt64 = 0
        var packSizes: [UInt64] = []
        var folders: [Folder] = []
        var subStreams: [SubStream] = []
    }

    /// Reads the header's fields in order, every read bounds-checked.
    struct HeaderCursor {
        let bytes: [UInt8]
        var position: Int
        let damaged: (String) -> ArchiveError

        var remaining: Int { bytes.count - position }

        mutating func byte(_ what: String) throws -> UInt8 {
            guard position < bytes.count else { throw damaged("the header ends inside \(what)") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func take(_ count: Int, _ what: String) throws -> ArraySlice<UInt8> {
            guard count >= 0, count <= remaining else { throw damaged("\(what) (\(count) bytes) runs past the end of the header") }
            defer { position += count }
            return bytes[position..<(position + count)]
        }

        mutating func uint32() throws -> UInt32 {
            try take(4, "a 32-bit field").reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func uint64() throws -> UInt64 {
            try take(8, "a 64-bit field").reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// 7z's NUMBER: the first byte's leading one bits count the little-endian bytes that
        /// follow; its remaining bits are the value's top bits.
        mutating func number(_ what: String) throws -> UInt64 {
            let first = try byte(what)
            var mask: UInt8 = 0x80
            var value: UInt64 = 0
            for index in 0..<8 {
                guard first & mask != 0 else {
                    let high = UInt64(first & (mask &- 1))
                    return value | high << (8 * UInt64(index))
                }
                value |= UInt64(try byte(what)) << (8 * UInt64(index))
                mask >>= 1
            }
            return value
        }

        /// A count of things that each take at least `bytesEach` bytes of what is left: a larger
        /// count is a lie and must not size an allocation.
        mutating func count(_ what: String, bytesEach: Int = 1) throws -> Int {
            let value = try number(what)
            guard value <= UInt64(remaining / max(bytesEach, 1)) else {
                throw damaged("\(what) says \(value), more than the header can hold")
            }
            return Int(value)
        }

        mutating func expect(_ id: UInt8, _ what: String) throws {
            let found = try byte(what)
            guard found == id else { throw damaged("expected \(what) (property \(id)), found property \(found)") }
        }

        /// `count` bits, the first in the top bit of the first byte.
        mutating func bits(_ count: Int, _ what: String) throws -> [Bool] {
            let packed = try take((count + 7) / 8, what)
            return (0..<count).map { packed[packed.startIndex + $0 / 8] & (0x80 >> UInt8($0 % 8)) != 0 }
        }

        /// An "all defined" byte or a bit vector, then a value for each defined item.
        mutating func definedBits(_ count: Int, _ what: String) throws -> [Bool] {
            try byte(what) != 0 ? [Bool](repeating: true, count: count) : bits(count, what)
        }

        mutating func digests(_ count: Int) throws -> [UInt32?] {
            try definedBits(count, "CRC list").map { try $0 ? uint32() : nil }
        }

        /// Header: archive properties, additional and main streams, files.
        mutating func header() throws -> [SevenZipDirectoryEntry] {
            var id = try byte("header")
            if id == PropertyID.archiveProperties {
                while try byte("archive properties") != PropertyID.end {
                    _ = try take(try count("archive property size"), "archive property")
                }
                id = try byte("header")
            }
            if id == PropertyID.additionalStreamsInfo {
                _ = try streamsInfo()
                id = try byte("header")
            }
            var streams = StreamsInfo()
            if id == PropertyID.mainStreamsInfo {
                streams = try streamsInfo()
                id = try byte("header")
            }
            var entries: [SevenZipDirectoryEntry] = []
            if id == PropertyID.filesInfo {
                entries = try filesInfo(streams.subStreams)
                id = try byte("header")
            } else if !streams.subStreams.isEmpty {
                throw damaged("the header has data but no file list")
            }
            guard id == PropertyID.end else { throw damaged("unexpected property \(id) in the header") }
            return entries
        }

        mutating func streamsInfo() throws -> StreamsInfo {
            var streams = StreamsInfo()
            var haveSubStreams = false
            while true {
                let id = try byte("streams info")
                switch id {
                case PropertyID.end:
                    if !haveSubStreams {
                        streams.subStreams = streams.folders.indices.map {
                            SubStream(folder: $0, size: streams.folders[$0].unpackSize, crc: streams.folders[$0].unpackCRC)
                        }
                    }
                    return streams
                case PropertyID.packInfo:
                    streams.packPosition = try number("pack position")
                    let packCount = try count("pack stream count")
                    var next = try byte("pack info")
                    if next == PropertyID.size {
                        streams.packSizes = try (0..<packCount).map { _ in try number("pack size") }
                        next = try byte("pack info")
                    }
                    if next == PropertyID.crc {
                        _ = try digests(packCount)
                        next = try byte("pack info")
                    }
                    guard next == PropertyID.end else { throw damaged("unexpected property \(next) in the pack info") }
                case PropertyID.unpackInfo:
                    streams.folders = try unpackInfo()
                case PropertyID.subStreamsInfo:
                    streams.subStreams = try subStreamsInfo(streams.folders)
                    haveSubStreams = true
                default:
                    throw damaged("unexpected property \(id) in the streams info")
                }
            }
        }

        mutating func unpackInfo() throws -> [Folder] {
            try expect(PropertyID.folder, "the folder list")
            // A folder takes at least 3 bytes (coder count, flags, one id byte).
            let folderCount = try count("folder count", bytesEach: 3)
            guard try byte("folder list") == 0 else { throw damaged("folders stored outside the header are not read") }
            var folders = try (0..<folderCount).map { _ in try folder() }
            try expect(PropertyID.codersUnpackSize, "the unpacked sizes")
            for index in folders.indices {
                folders[index].unpackSizes = try (0..<folders[index].outStreamCount).map { _ in try number("unpacked size") }
            }
            var next = try byte("unpack info")
            if next == PropertyID.crc {
                for (index, crc) in try digests(folderCount).enumerated() { folders[index].unpackCRC = crc }
                next = try byte("unpack info")
            }
            guard next == PropertyID.end else { throw damaged("unexpected property \(next) in the unpack info") }
            return folders
        }

        mutating func folder() throws -> Folder {
            var folder = Folder()
            let coderCount = try count("coder count", bytesEach: 2)
            guard (1...64).contains(coderCount) else { throw damaged("a folder with \(coderCount) coders") }
            for _ in 0..<coderCount {
                let flags = try byte("coder flags")
                guard flags & 0xC0 == 0 else { throw damaged("coder flags \(flags) are not read") }
                let id = Array(try take(Int(flags & 0x0F), "coder id"))
                var inStreams = 1, outStreams = 1
                if flags & 0x10 != 0 {
                    inStreams = try count("coder in streams")
                    outStreams = try count("coder out streams")
                    guard (1...64).contains(inStreams), (1...64).contains(outStreams) else {
                        throw damaged("a coder with \(inStreams) in and \(outStreams) out streams")
                    }
                }
                let properties = flags & 0x20 != 0 ? Array(try take(try count("coder properties size"), "coder properties")) : []
                folder.coders.append(Coder(id: id, inStreams: inStreams, outStreams: outStreams, properties: properties))
            }
            let outCount = folder.outStreamCount
            let inCount = folder.coders.reduce(0) { $0 + $1.inStreams }
            guard inCount >= outCount - 1 else { throw damaged("a folder with fewer in streams than bind pairs") }
            for _ in 0..<(outCount - 1) {
                let input = try number("bind pair"), output = try number("bind pair")
                guard input < UInt64(inCount), output < UInt64(outCount) else { throw damaged("a bind pair out of range") }
                folder.bindPairs.append((Int(input), Int(output)))
            }
            let packedCount = inCount - (outCount - 1)
            if packedCount > 1 {
                for _ in 0..<packedCount { _ = try number("packed stream index") }
            }
            return folder
        }

        mutating func subStreamsInfo(_ folders: [Folder]) throws -> [SubStream] {
            var counts = [Int](repeating: 1, count: folders.count)
            var id = try byte("substreams info")
            if id == PropertyID.numUnpackStream {
                var total = 0
                for index in counts.indices {
                    counts[index] = try count("substream count")
                    total += counts[index]
                    // Each stream is a file, and each file's name takes at least 2 bytes.
                    guard total <= remaining else { throw damaged("\(total) substreams, more than the header can hold") }
                }
                id = try byte("substreams info")
            }
            var streams: [SubStream] = []
            for (index, folder) in folders.enumerated() where counts[index] > 0 {
                let folderSize = folder.unpackSize
                var used: UInt64 = 0
                if counts[index] > 1 {
                    guard id == PropertyID.size else { throw damaged("a folder of \(counts[index]) files without their sizes") }
                    for _ in 1..<counts[index] {
                        let size = try number("substream size")
                        guard size <= folderSize - used else { throw damaged("substream sizes add up past their folder's size") }
                        used += size
                        streams.append(SubStream(folder: index, size: size))
                    }
                }
                let crc = counts[index] == 1 ? folder.unpackCRC : nil
                streams.append(SubStream(folder: index, size: folderSize - used, crc: crc))
            }
            if id == PropertyID.size { id = try byte("substreams info") }
            // Digests follow for the streams whose folder's own CRC does not already cover them.
            let unknown = streams.indices.filter { counts[streams[$0].folder] != 1 || folders[streams[$0].folder].unpackCRC == nil }
            while id != PropertyID.end {
                if id == PropertyID.crc {
                    for (index, crc) in zip(unknown, try digests(unknown.count)) { streams[index].crc = crc }
                } else {
                    _ = try take(try count("property size"), "substreams property")
                }
                id = try byte("substreams info")
            }
            return streams
        }

        mutating func filesInfo(_ streams: [SubStream]) throws -> [SevenZipDirectoryEntry] {
            // Every file has at least a 2-byte name terminator.
            let fileCount = try count("file count", bytesEach: 2)
            var emptyStream = [Bool](repeating: false, count: fileCount)
            var emptyFile: [Bool] = []
            var names: [String] = []
            var attributes = [UInt32?](repeating: nil, count: fileCount)
            while true {
                let id = try number("file property")
                if id == UInt64(PropertyID.end) { break }
                var data = HeaderCursor(bytes: Array(try take(try count("file property size"), "file property")),
                                        position: 0, damaged: damaged)
                switch id {
                case UInt64(PropertyID.emptyStream):
                    emptyStream = try data.bits(fileCount, "empty stream list")
                case UInt64(PropertyID.emptyFile):
                    emptyFile = try data.bits(emptyStream.filter { $0 }.count, "empty file list")
                case UInt64(PropertyID.name):
                    guard try data.byte("names") == 0 else { throw damaged("names stored outside the header are not read") }
                    names = try data.names(fileCount)
                case UInt64(PropertyID.attributes):
                    let defined = try data.definedBits(fileCount, "attributes")
                    guard try data.byte("attributes") == 0 else { throw damaged("attributes stored outside the header are not read") }
                    for index in defined.indices where defined[index] { attributes[index] = try data.uint32() }
                default:
                    break   // times, anti items, padding: not needed
                }
            }
            guard names.count == fileCount else { throw damaged("\(fileCount) files but \(names.count) names") }
            var entries: [SevenZipDirectoryEntry] = []
            entries.reserveCapacity(fileCount)
            var streamIndex = 0, emptyIndex = 0
            for index in 0..<fileCount {
                let directoryAttribute = attributes[index].map { $0 & 0x10 != 0 } ?? false
                if emptyStream[index] {
                    let isFile = emptyIndex < emptyFile.count && emptyFile[emptyIndex]
                    emptyIndex += 1
                    entries.append(SevenZipDirectoryEntry(path: names[index], size: 0, crc32: nil,
                                                          isDirectory: !isFile || directoryAttribute, folder: nil))
                } else {
                    guard streamIndex < streams.count else { throw damaged("more files with data than data streams") }
                    let stream = streams[streamIndex]
                    streamIndex += 1
                    entries.append(SevenZipDirectoryEntry(path: names[index], size: stream.size, crc32: stream.crc,
                                                          isDirectory: directoryAttribute, folder: stream.folder))
                }
            }
            guard streamIndex == streams.count else { throw damaged("\(streams.count) data streams but \(streamIndex) files with data") }
            return entries
        }

        /// `count` zero-terminated UTF-16LE names filling the rest of the property.
        mutating func names(_ count: Int) throws -> [String] {
            var names: [String] = []
            var units: [UInt16] = []
            while names.count < count {
                guard remaining >= 2 else { throw damaged("the header ends inside file name \(names.count + 1) of \(count)") }
                let unit = UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
                position += 2
                if unit == 0 {
                    names.append(String(decoding: units, as: UTF16.self))
                    units.removeAll(keepingCapacity: true)
                } else {
                    units.append(unit)
                }
            }
            return names
        }
    }
}
