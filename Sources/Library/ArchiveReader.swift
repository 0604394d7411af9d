internal import CArchive
import Foundation
import PhosphorKit

/// One regular file inside a `.zip` or `.7z`.
public struct ArchiveEntry: Sendable, Equatable {
    /// The path exactly as the archive stores it (may be hostile: check `ArchiveReader.isSafeEntryPath`).
    public let path: String
    /// Uncompressed size from the archive's header, when it has one.
    public let size: Int?
    public let isEncrypted: Bool

    public init(path: String, size: Int?, isEncrypted: Bool) {
        self.path = path
        self.size = size
        self.isEncrypted = isEncrypted
    }

    /// The last path component, lower-cased extension, for deciding what the entry is.
    public var fileExtension: String { URL(fileURLWithPath: path.replacingOccurrences(of: "\\", with: "/")).pathExtension.lowercased() }
}

/// Why an archive or one of its entries was refused. One line, naming the archive and entry.
public enum ArchiveError: Error, Equatable, CustomStringConvertible {
    case library(archive: String, function: String, message: String)
    case unsafePath(archive: String, entry: String)
    case encrypted(archive: String, entry: String)
    case tooLarge(archive: String, entry: String, cap: Int)
    /// Within the reader's cap but larger than any real cartridge of `system` (`RomSizeLimit`).
    case tooLargeForSystem(archive: String, entry: String, system: String, cap: Int)
    case nestedArchive(archive: String, entry: String)
    case entryNotFound(archive: String, entry: String)
    /// A zip's central directory cannot be read (cut short, damaged, not a zip).
    case damagedDirectory(archive: String, reason: String)
    /// A 7z archive's own header cannot be read (cut short, damaged, packed with a method not read here).
    case damagedSevenZipHeader(archive: String, reason: String)

    static func describeSize(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes)-byte"
    }

    public var description: String {
        func show(_ text: String) -> String { DisplayText.sanitized(text) }
        switch self {
        case .library(let archive, let function, let message):
            return "\(show(archive)): \(function) failed: \(show(message))"
        case .unsafePath(let archive, let entry):
            return "\(show(archive)): refused entry \"\(show(entry))\": path leaves the archive folder"
        case .encrypted(let archive, let entry):
            return "\(show(archive)): refused entry \"\(show(entry))\": encrypted (password-protected)"
        case .tooLarge(let archive, let entry, let cap):
            return "\(show(archive)): refused entry \"\(show(entry))\": larger than the \(ArchiveError.describeSize(cap)) limit"
        case .tooLargeForSystem(let archive, let entry, let system, let cap):
            return "\(show(archive)): refused entry \"\(show(entry))\": larger than the \(ArchiveError.describeSize(cap)) limit for \(system) games"
        case .nestedArchive(let archive, let entry):
            return "\(show(archive)): ignored entry \"\(show(entry))\": archives inside archives are not opened"
        case .entryNotFound(let archive, let entry):
            return "\(show(archive)): no entry \"\(show(entry))\""
        case .damagedDirectory(let archive, let reason):
            return "\(show(archive)): cannot read the zip directory: \(show(reason))"
        case .damagedSevenZipHeader(let archive, let reason):
            return "\(show(archive)): cannot read the 7z header: \(show(reason))"
        }
    }
}

/// Reads `.zip` and `.7z` archives through libarchive: lists entries, streams an entry's bytes
/// with a size cap, and extracts one entry into a cache folder. Never writes anywhere but the
/// cache folder, whatever the entry's path says. Any thread (each call opens its own reader).
public enum ArchiveReader {
    /// Entries larger than this are refused unless a caller passes another cap.
    public static let defaultSizeCap = 512 << 20

    /// Archive extensions the scanner opens.
    public static let archiveExtensions: Set<String> = ["zip", "7z"]

    /// Extensions of archives that are not opened when found inside another archive.
    static let nestedArchiveExtensions: Set<String> = ["zip", "7z", "rar", "tar", "gz", "tgz", "bz2", "xz", "zst", "lzh"]

    /// Lists the regular files of an archive (directories and links left out).
    public static func entries(of archive: URL) throws -> [ArchiveEntry] {
        let session = try ArchiveSession(url: archive)
        var entries: [ArchiveEntry] = []
        while let entry = try session.nextEntry() {
            if entry.isRegularFile { entries.append(entry.entry) }
        }
        return entries
    }

    /// A relative path that stays inside the folder it is extracted to: not absolute, no drive
    /// letter, no `..` component (with `/` or `\` as separator), not empty.
    public static func isSafeEntryPath(_ path: String) -> Bool {
        let normalized = path.replacingOccurrences(of: "\\", with: "/")
        guard !normalized.isEmpty, !normalized.hasPrefix("/"), !normalized.contains("\0") else { return false }
        let scalars = Array(normalized.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return false }
        return !normalized.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    /// Throws when an entry must not be read: unsafe path, nested archive, encrypted, or a
    /// declared size over `sizeCap`.
    public static func validate(_ entry: ArchiveEntry, in archive: URL, sizeCap: Int) throws {
        let name = archive.path
        guard isSafeEntryPath(entry.path) else { throw ArchiveError.unsafePath(archive: name, entry: entry.path) }
        if nestedArchiveExtensions.contains(entry.fileExtension) {
            throw ArchiveError.nestedArchive(archive: name, entry: entry.path)
        }
        if entry.isEncrypted { throw ArchiveError.encrypted(archive: name, entry: entry.path) }
        if let size = entry.size, size > sizeCap {
            throw ArchiveError.tooLarge(archive: name, entry: entry.path, cap: sizeCap)
        }
    }

    /// Extracts one entry to `folder/<entry key>-<version>/<entry file name>` and returns that
    /// file. The entry key is a CRC-32 of the archive path and the entry path; the version one of
    /// the archive's size and mtime, so a changed archive gets a fresh copy, an unchanged one is
    /// extracted once, and the copies of older versions of the same entry are deleted (a `touch`
    /// must not double the cache). The file is written under a temporary name and renamed into place.
    public static func extract(entry entryPath: String, from archive: URL, to folder: URL,
                               sizeCap: Int = defaultSizeCap) throws -> URL {
        let attributes = try FileManager.default.attributesOfItem(atPath: archive.path)
        let archiveSize = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let archiveTime = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let entryKey = String(format: "%08x", CRC32.checksum(Array("\(archive.path)\0\(entryPath)".utf8)))
        let version = String(format: "%08x", CRC32.checksum(Array("\(archiveSize)\0\(archiveTime)".utf8)))
        let destinationFolder = folder.appendingPathComponent("\(entryKey)-\(version)", isDirectory: true)
        let file = try extract(entry: entryPath, from: archive, into: destinationFolder, sizeCap: sizeCap)
        removeOlderVersions(of: entryKey, in: folder, keeping: destinationFolder.lastPathComponent)
        return file
    }

    /// Deletes `folder/<entryKey>-*` except `kept`. Best effort: a copy that cannot be deleted
    /// now is left to the cache's size cap.
    private static func removeOlderVersions(of entryKey: String, in folder: URL, keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(entryKey + "-") && name != kept {
            do {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            } catch {
                Log.warning("extraction cache: cannot remove \(name): \(ErrorText.line(error))")
            }
        }
    }

    private static func extract(entry entryPath: String, from archive: URL, into destinationFolder: URL,
                                sizeCap: Int) throws -> URL {
        let name = archive.path
        let session = try ArchiveSession(url: archive)
        while let found = try session.nextEntry() {
            guard found.isRegularFile, found.entry.path == entryPath else { continue }
            try validate(found.entry, in: archive, sizeCap: sizeCap)
            let baseName = entryPath.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? ""
            guard !baseName.isEmpty, baseName != ".", baseName != ".." else {
                throw ArchiveError.unsafePath(archive: name, entry: entryPath)
            }
            let destination = destinationFolder.appendingPathComponent(baseName)
            // Defence in depth: the final path must sit directly inside the cache folder we chose.
            guard destination.deletingLastPathComponent().standardizedFileURL.path
                    == destinationFolder.standardizedFileURL.path else {
                throw ArchiveError.unsafePath(archive: name, entry: entryPath)
            }
            if let size = found.entry.size, let existing = try? FileManager.default.attributesOfItem(atPath: destination.path),
               (existing[.size] as? NSNumber)?.intValue == size {
                return destination
            }
            try FileManager.default.createDirectory(at: destinationFolder, withIntermediateDirectories: true)
            let temporary = destinationFolder.appendingPathComponent(".\(baseName).partial-\(ProcessInfo.processInfo.processIdentifier)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw ArchiveError.library(archive: name, function: "creat", message: "cannot create \(temporary.path)")
            }
            do {
                let handle = try FileHandle(forWritingTo: temporary)
                defer { try? handle.close() }
                try session.readData(entry: found.entry, sizeCap: sizeCap) { chunk in
                    try handle.write(contentsOf: Data(chunk))
                }
                try handle.synchronize()
                try systemCall("rename(\(destination.lastPathComponent))") { rename(temporary.path, destination.path) }
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw error
            }
            return destination
        }
        throw ArchiveError.entryNotFound(archive: name, entry: entryPath)
    }
}

/// One pass over an archive with libarchive (which only reads forwards). Internal to Library.
final class ArchiveSession {
    struct Found {
        let entry: ArchiveEntry
        let isRegularFile: Bool
    }

    private let reader: OpaquePointer
    private let archiveName: String
    /// Bytes produced so far by the current entry, for the size cap.
    private var entryBytesRead = 0

    init(url: URL) throws {
        archiveName = url.path
        guard let reader = carchive_read_new_for_roms() else {
            throw ArchiveError.library(archive: url.path, function: "archive_read_new", message: "out of memory")
        }
        self.reader = reader
        try check(archive_read_open_filename(reader, url.path, 1 << 16), "archive_read_open_filename")
    }

    deinit { archive_read_free(reader) }

    private func check(_ result: Int32, _ function: String) throws {
        guard result >= ARCHIVE_WARN else {
            let message = archive_error_string(reader).map { String(cString: $0) } ?? "error \(result)"
            throw ArchiveError.library(archive: archiveName, function: function, message: message)
        }
    }

    /// The next entry's header, or nil at the end of the archive.
    func nextEntry() throws -> Found? {
        var header: OpaquePointer?
        entryBytesRead = 0
        let result = archive_read_next_header(reader, &header)
        if result == ARCHIVE_EOF { return nil }
        try check(result, "archive_read_next_header")
        guard let header else { return nil }
        let path = archive_entry_pathname_utf8(header).map { String(cString: $0) }
            ?? archive_entry_pathname(header).map { String(cString: $0) } ?? ""
        let size = archive_entry_size_is_set(header) != 0 ? Int(archive_entry_size(header)) : nil
        let encrypted = archive_entry_is_encrypted(header) != 0
        return Found(entry: ArchiveEntry(path: path, size: size, isEncrypted: encrypted),
                     isRegularFile: carchive_entry_is_regular_file(header) != 0)
    }

    /// Streams the current entry's bytes in chunks, refusing it once more than `sizeCap` bytes
    /// come out (the header's size can lie).
    func readData(entry: ArchiveEntry, sizeCap: Int, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try readBlock(into: buffer, entry: entry, sizeCap: sizeCap)
            if count == 0 { return }
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Fills `buffer` from the current entry; 0 at its end. Throws once the entry has produced
    /// more than `sizeCap` bytes, or when it is encrypted.
    func readBlock(into buffer: UnsafeMutableRawBufferPointer, entry: ArchiveEntry, sizeCap: Int) throws -> Int {
        let count = archive_read_data(reader, buffer.baseAddress, buffer.count)
        if count < 0 {
            let message = archive_error_string(reader).map { String(cString: $0) } ?? "error \(count)"
            if entry.isEncrypted || message.localizedCaseInsensitiveContains("passphrase")
                || message.localizedCaseInsensitiveContains("encrypt") {
                throw ArchiveError.encrypted(archive: archiveName, entry: entry.path)
            }
            throw ArchiveError.library(archive: archiveName, function: "archive_read_data", message: message)
        }
        entryBytesRead += count
        if entryBytesRead > sizeCap { throw ArchiveError.tooLarge(archive: archiveName, entry: entry.path, cap: sizeCap) }
        return count
    }
}
