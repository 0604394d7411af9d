import Foundation
import PhosphorKit

/// A file on disk the scanner will look at: a ROM by extension, a file to sniff, or an archive.
/// `size` and `modified` are what incremental rescans compare.
public struct ScanCandidate: Sendable, Hashable {
    public let path: String
    public let size: Int
    /// Modification time, seconds since 1970 (fractional: Linux keeps nanoseconds).
    public let modified: Double

    public init(path: String, size: Int, modified: Double) {
        self.path = path
        self.size = size
        self.modified = modified
    }
}

/// A ROM found by the scanner, as a plain file (`archiveEntry == nil`) or inside an archive.
public struct ScannedRom: Sendable, Equatable {
    public let system: GameSystem
    /// Header title when the header has one, else the tidied file name; always sanitized.
    public let title: String
    public let path: String
    public let archiveEntry: String?
    /// Size of the ROM data (the entry's size for an archive entry).
    public let size: Int
    /// CRC-32 of the ROM data after any copier header.
    public let crc32: UInt32
}

/// A file or archive entry that was skipped, with a one-line reason naming it.
public struct ScanProblem: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { message }
}

/// What reading one file gave.
public struct FileScanResult: Sendable, Equatable {
    public let roms: [ScannedRom]
    public let problems: [ScanProblem]
    /// The file (or archive) could not be read to the end: an I/O error or a damaged archive,
    /// as opposed to a clear verdict such as "not an NES ROM". A library keeps the old games of
    /// such a file rather than dropping them.
    public let couldNotRead: Bool
}

/// Progress for a progress bar: `filesSeen` of about `totalGuess` files; `currentFile` is sanitized.
public struct ScanProgress: Sendable, Equatable {
    public let filesSeen: Int
    public let totalGuess: Int
    public let currentFile: String
    /// ROMs found so far in the files read by this scan (unchanged files are not counted).
    public var gamesFound = 0
    /// The folder being walked or read; sanitized.
    public var currentFolder = ""
    /// Files and entries skipped so far (problems of this scan).
    public var skipped = 0

    public init(filesSeen: Int, totalGuess: Int, currentFile: String, gamesFound: Int = 0,
                currentFolder: String = "", skipped: Int = 0) {
        self.filesSeen = filesSeen
        self.totalGuess = totalGuess
        self.currentFile = currentFile
        self.gamesFound = gamesFound
        self.currentFolder = currentFolder
        self.skipped = skipped
    }

    /// Still walking the folders: `filesSeen` counts candidates found, nothing is read yet.
    public var isWalking: Bool { totalGuess == 0 }
}

/// Finds ROMs in folders and archives, and reads each one (header + CRC-32). Stateless apart
/// from its settings; the incremental logic lives in `GameLibrary.scan`. Any thread.
public struct LibraryScanner: Sendable {
    /// An archive entry that inflates past this many bytes is refused.
    public var sizeCap: Int

    public init(sizeCap: Int = ArchiveReader.defaultSizeCap) {
        self.sizeCap = sizeCap
    }

    /// Extensions with no system of their own that may still hold a ROM: sniffed.
    public static let sniffedExtensions: Set<String> = ["bin", "rom", ""]

    /// Whether a file name is worth reading: a system's extension, a sniffable one, or an archive.
    public static func isCandidate(fileName: String) -> Bool {
        guard !fileName.hasPrefix(".") else { return false }
        let fileExtension = URL(fileURLWithPath: fileName).pathExtension.lowercased()
        return GameSystem.guess(fromExtension: fileExtension) != nil
            || sniffedExtensions.contains(fileExtension)
            || ArchiveReader.archiveExtensions.contains(fileExtension)
    }

    /// A display title from a file name: extension removed, underscores as spaces, runs of
    /// spaces collapsed, tags such as "(USA)" kept as they are, sanitized.
    public static func title(fromFileName fileName: String) -> String {
        let base = fileName.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? fileName
        let stem = (base as NSString).deletingPathExtension
        let spaced = (stem.isEmpty ? base : stem).replacingOccurrences(of: "_", with: " ")
        let words = DisplayText.sanitized(spaced).split(whereSeparator: { $0 == " " })
        return words.isEmpty ? "Untitled" : words.joined(separator: " ")
    }

    /// Reads one candidate: a plain ROM gives at most one result, an archive one per ROM entry.
    /// Never throws: every failure becomes a problem naming the file (and entry).
    public func read(_ candidate: ScanCandidate) -> FileScanResult {
        let url = URL(fileURLWithPath: candidate.path)
        if ArchiveReader.archiveExtensions.contains(url.pathExtension.lowercased()) {
            return readArchive(url)
        }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let digest = try RomDigest.make(fileName: url.lastPathComponent, declaredSize: candidate.size) { buffer in
                let data = try handle.read(upToCount: buffer.count) ?? Data()
                data.copyBytes(to: buffer)
                return data.count
            }
            return FileScanResult(roms: [ScannedRom(system: digest.info.system,
                                                    title: digest.info.title ?? LibraryScanner.title(fromFileName: url.lastPathComponent),
                                                    path: candidate.path, archiveEntry: nil, size: digest.size,
                                                    crc32: digest.crc32)],
                                  problems: [], couldNotRead: false)
        } catch {
            return FileScanResult(roms: [], problems: [problem(candidate.path, error)],
                                  couldNotRead: !(error is RomInspectionError))
        }
    }

    private func readArchive(_ url: URL) -> FileScanResult {
        var roms: [ScannedRom] = []
        var problems: [ScanProblem] = []
        var couldNotRead = false
        // A zip's directory and a 7z's header hold every entry's CRC, so only the head of each
        // entry (what the header inspector needs) is unpacked; nil when that directory cannot be
        // read (libarchive may still read the archive: each entry is then unpacked whole, and
        // libarchive's error is the one reported). In a solid 7z the rest of an entry is still
        // decoded to reach the next one, but neither copied nor checksummed (BENCHMARKS.md §7).
        let stored = Self.storedDirectory(of: url)
        do {
            let session = try ArchiveSession(url: url)
            // Once a 7z's last entry is read, asking libarchive for one more would decode the rest
            // of it (4 MiB of LZMA for a one-ROM archive) only to learn there is nothing after it.
            var entriesSeen = 0
            while entriesSeen != stored?.entryCount, let found = try session.nextEntry() {
                entriesSeen += 1
                guard found.isRegularFile else { continue }
                let entry = found.entry
                let entryName = entry.path.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? ""
                // Nested archives are skipped quietly; other files that cannot be ROMs too.
                if ArchiveReader.nestedArchiveExtensions.contains(entry.fileExtension) { continue }
                guard LibraryScanner.isCandidate(fileName: entryName) else { continue }
                do {
                    try ArchiveReader.validate(entry, in: url, sizeCap: sizeCap)
                    // A declared size past what the extension's system allows is refused unread.
                    if let guessed = GameSystem.guess(fromExtension: entry.fileExtension), let size = entry.size,
                       size > RomSizeLimit.bytes(for: guessed) {
                        throw ArchiveError.tooLargeForSystem(archive: url.path, entry: entry.path,
                                                             system: guessed.displayName, cap: RomSizeLimit.bytes(for: guessed))
                    }
                    // The directory's record counts only when it agrees with libarchive's header.
                    let record = stored?.files[entry.path].flatMap { Int(exactly: $0.size) == entry.size ? $0 : nil }
                    let digest = try RomDigest.make(fileName: entryName, declaredSize: entry.size,
                                                    storedCRC: record?.crc32) { buffer in
                        try session.readBlock(into: buffer, entry: entry, sizeCap: sizeCap)
                    }
                    // The system is known only now; a game too big for it is refused at scan
                    // time rather than when it is first played.
                    let systemCap = RomSizeLimit.bytes(for: digest.info.system)
                    if digest.size > systemCap {
                        throw ArchiveError.tooLargeForSystem(archive: url.path, entry: entry.path,
                                                             system: digest.info.system.displayName, cap: systemCap)
                    }
                    roms.append(ScannedRom(system: digest.info.system,
                                           title: digest.info.title ?? LibraryScanner.title(fromFileName: entryName),
                                           path: url.standardizedFileURL.path, archiveEntry: entry.path,
                                           size: digest.size, crc32: digest.crc32))
                } catch let error as RomInspectionError {
                    problems.append(ScanProblem(path: url.path, message: "\(DisplayText.sanitized(url.path)): \(error)"))
                } catch {
                    problems.append(problem(url.path, error))
                }
            }
        } catch {
            // The archive itself failed (unreadable, damaged, not an archive): what was listed
            // before this point is incomplete.
            problems.append(problem(url.path, error))
            couldNotRead = true
        }
        return FileScanResult(roms: roms, problems: problems, couldNotRead: couldNotRead)
    }

    /// What an archive's own directory says about a file: enough not to unpack all of it.
    struct StoredEntry: Equatable {
        let size: UInt64
        let crc32: UInt32
    }

    /// A zip directory's or 7z header's files by path.
    struct StoredDirectory {
        /// Names that occur twice are left out (which record libarchive's header is would be a
        /// guess), and so are files without a stored CRC.
        let files: [String: StoredEntry]
        /// A 7z's number of entries, folders and empty files included: libarchive lists exactly
        /// these, in this order. nil for a zip (skipping a zip entry's rest costs nothing).
        let entryCount: Int?
    }

    /// nil when the directory cannot be read or the archive is neither zip nor 7z.
    static func storedDirectory(of url: URL) -> StoredDirectory? {
        let files: [(path: String, entry: StoredEntry?)]
        var entryCount: Int?
        switch url.pathExtension.lowercased() {
        case "zip":
            guard let entries = try? ZipDirectory.entries(of: url) else { return nil }
            files = entries.filter { !$0.isDirectory }.map { ($0.path, StoredEntry(size: $0.size, crc32: $0.crc32)) }
        case "7z":
            guard let entries = try? SevenZipDirectory.entries(of: url) else { return nil }
            files = entries.filter { !$0.isDirectory }.map { entry in
                (entry.path, entry.crc32.map { StoredEntry(size: entry.size, crc32: $0) })
            }
            entryCount = entries.count
        default:
            return nil
        }
        var byPath: [String: StoredEntry?] = [:]
        var repeated = Set<String>()
        for file in files where byPath.updateValue(file.entry, forKey: file.path) != nil {
            repeated.insert(file.path)
        }
        for path in repeated { byPath[path] = nil }
        return StoredDirectory(files: byPath.compactMapValues { $0 }, entryCount: entryCount)
    }

    private func problem(_ path: String, _ error: Error) -> ScanProblem {
        switch error {
        case let error as RomInspectionError:
            // The inspector names only the file; give the full path.
            let text = "\(error)"
            let name = DisplayText.sanitized(URL(fileURLWithPath: path).lastPathComponent)
            let message = text.hasPrefix(name + ":")
                ? DisplayText.sanitized(path) + text.dropFirst(name.count) : text
            return ScanProblem(path: path, message: message)
        case let error as ArchiveError:
            return ScanProblem(path: path, message: "\(error)")
        default:
            let text = "\(error.localizedDescription)".replacingOccurrences(of: "\n", with: " ")
            return ScanProblem(path: path, message: "\(DisplayText.sanitized(path)): \(DisplayText.sanitized(text))")
        }
    }
}

/// Header inspection plus CRC-32 over one stream of bytes, read once.
struct RomDigest {
    let info: RomInfo
    let crc32: UInt32
    let size: Int

    /// `read` fills the buffer and returns the byte count (0 at the end). With a declared size
    /// the header is inspected as soon as enough bytes arrived; without one the whole stream
    /// is kept until the end so the size is known.
    ///
    /// `storedCRC` (a zip directory's or 7z header's, of the whole entry) with a declared size stops reading
    /// once the header is inspected: the rest is never inflated. The CRC is then the stored one
    /// with any copier header taken out, the same value reading everything would give.
    static func make(fileName: String, declaredSize: Int?, storedCRC: UInt32? = nil,
                     read: (UnsafeMutableRawBufferPointer) throws -> Int) throws -> RomDigest {
        // As big as the ROM (most are small) up to 1 MiB: a 1 MiB buffer per file is an mmap and
        // munmap for every one of 20 000 files.
        // With a stored CRC no more than the header is wanted: a smaller request asks the
        // decompressor for less.
        let bufferSize = min(storedCRC == nil ? 1 << 20 : RomInspector.headerBytesNeeded,
                             max(64 << 10, (declaredSize ?? 0) + 1))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var head: [UInt8] = []
        var info: RomInfo?
        var crc = CRC32()
        var total = 0
        while true {
            let count = try read(buffer)
            if count == 0 { break }
            total += count
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if info != nil {
                crc.update(chunk)
                continue
            }
            // Keep only what the inspector needs (or everything when the size is unknown).
            let kept = declaredSize == nil ? count : min(count, RomInspector.headerBytesNeeded - head.count)
            head.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<kept]))
            if let declaredSize, head.count >= RomInspector.headerBytesNeeded {
                let inspected = try RomInspector.inspect(fileName: fileName, bytes: head, fileSize: declaredSize)
                if let storedCRC, total < declaredSize {
                    let copier = inspected.copierHeaderSize
                    let crc = copier == 0 ? storedCRC
                        : CRC32.checksumOfSuffix(whole: storedCRC, prefix: CRC32.checksum(head.prefix(copier)),
                                                 suffixLength: declaredSize - copier)
                    return RomDigest(info: inspected, crc32: crc, size: declaredSize)
                }
                head.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[min(inspected.copierHeaderSize, $0.count)...])) }
                crc.update(UnsafeRawBufferPointer(rebasing: chunk[kept...]))
                info = inspected
                head = []
            }
        }
        if info == nil {
            let inspected = try RomInspector.inspect(fileName: fileName, bytes: head, fileSize: total)
            crc.update(head.dropFirst(inspected.copierHeaderSize))
            info = inspected
        }
        return RomDigest(info: info!, crc32: crc.value, size: total)
    }
}

