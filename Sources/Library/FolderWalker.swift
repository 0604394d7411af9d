import Foundation
import Glibc
import PhosphorKit

/// Walks a folder tree with `opendir`/`readdir`/`fstatat`: one `stat` per candidate file and
/// none per folder (the entry type comes from `readdir`). Foundation's enumerator builds a URL
/// and a resource dictionary per entry, which made an unchanged rescan of 20 000 files take
/// seconds. Hidden files and folders are skipped; symbolic links to files are followed, links
/// to folders are not (a link loop cannot trap the walk). Reads no file contents.
///
/// The walk goes one folder per `nextFolder()` call, so a caller can act on each folder's files
/// as they are found (the scan starts reading them while the walk goes on) and stop between
/// folders. Any thread; one walk per instance.
struct FolderWalker {
    /// One folder as listed: its candidate files sorted by path, and what could not be read.
    struct ListedFolder {
        let path: String
        let files: [ScanCandidate]
        let problems: [ScanProblem]
    }

    /// False: only the folders are listed (a watcher needs no files, and no `stat` per file).
    let listsFiles: Bool

    /// Every folder the walk entered so far, the root first.
    private(set) var foldersEntered: [String] = []
    /// Folders still to list; the next one last.
    private var pending: [String]

    /// A walk of `root` (an absolute, standardized path); nothing is read until `nextFolder()`.
    init(root: String, listsFiles: Bool = true) {
        self.listsFiles = listsFiles
        pending = [root]
    }

    /// The folder the next `nextFolder()` lists, nil when the walk is done.
    var upcomingFolder: String? { pending.last }

    /// Lists the next folder, depth first with sibling folders in name order; nil when every
    /// folder is listed.
    mutating func nextFolder() -> ListedFolder? {
        guard let folder = pending.popLast() else { return nil }
        foldersEntered.append(folder)
        var listing = Listing()
        walkOne(folder, into: &listing)
        pending += listing.subfolders.sorted(by: >)
        return ListedFolder(path: folder, files: listing.files.sorted { $0.path < $1.path }, problems: listing.problems)
    }

    /// What one folder holds.
    private struct Listing {
        var files: [ScanCandidate] = []
        var subfolders: [String] = []
        var problems: [ScanProblem] = []
    }

    /// Lists one folder's candidate files, subfolders and problems.
    private func walkOne(_ folder: String, into listing: inout Listing) {
        guard let directory = opendir(folder) else {
            let reason = String(cString: strerror(errno))
            listing.problems.append(ScanProblem(path: folder, message: "\(DisplayText.sanitized(folder)): cannot read folder "
                                        + "(opendir: \(DisplayText.sanitized(reason)))"))
            return
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let nameBytes = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                let bytes = raw.bindMemory(to: UInt8.self)
                return Array(bytes.prefix { $0 != 0 })
            }
            guard let first = nameBytes.first, first != UInt8(ascii: ".") else { continue }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let path = folder == "/" ? "/" + name : folder + "/" + name
            let type = entry.pointee.d_type
            if type == UInt8(DT_DIR) {
                listing.subfolders.append(path)
                continue
            }
            guard listsFiles || type == UInt8(DT_UNKNOWN) else { continue }
            guard listsFiles, LibraryScanner.isCandidate(fileName: name) else {
                // DT_UNKNOWN (some file systems) may still be a folder.
                if type == UInt8(DT_UNKNOWN), isFolder(nameBytes, in: descriptor, followLinks: false) { listing.subfolders.append(path) }
                continue
            }
            guard String(validatingUTF8: nameBytes.map { CChar(bitPattern: $0) } + [0]) != nil else {
                // The name is not UTF-8: a Swift path string cannot name the file again.
                listing.problems.append(ScanProblem(path: path, message: "\(DisplayText.sanitized(path)): the file name is not valid "
                                            + "UTF-8 (rename the file to add it)"))
                continue
            }
            var status = stat()
            let followed = nameBytes.withUnsafeBufferPointer { buffer -> Int32 in
                (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { fstatat(descriptor, $0.baseAddress!, &status, 0) }
            }
            // A dangling link or a file that vanished meanwhile is left out, as before.
            guard followed == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFREG {
                let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1_000_000_000
                listing.files.append(ScanCandidate(path: path, size: Int(status.st_size), modified: modified))
            } else if status.st_mode & S_IFMT == S_IFDIR, type == UInt8(DT_UNKNOWN) {
                listing.subfolders.append(path)
            }
        }
    }

    private func isFolder(_ name: [UInt8], in descriptor: Int32, followLinks: Bool) -> Bool {
        var status = stat()
        let flags = followLinks ? 0 : AT_SYMLINK_NOFOLLOW
        let result = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            fstatat(descriptor, $0.baseAddress!, &status, flags)
        }
        return result == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
