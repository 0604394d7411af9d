import Foundation
import Glibc
import PhosphorKit

/// Walks a folder tree with `opendir`/`readdir`/`fstatat`: one `stat` per candidate file and
/// none per folder (the entry type comes from `readdir`). Foundation's enumerator builds a URL
/// and a resource dictionary per entry, which made an unchanged rescan of 20 000 files take
/// seconds. Hidden files and folders are skipped; symbolic links to files are followed, links
/// to folders are not (a link loop cannot trap the walk). Any thread; one walk per instance.
struct FolderWalker {
    /// Called with each folder as the walk enters it, and the files found so far (for a progress line).
    var folderEntered: (_ path: String, _ filesFound: Int) -> Void = { _, _ in }
    /// Asked before each folder: true stops the walk (Ctrl-C).
    var isCancelled: () -> Bool = { false }

    /// False: only the folders are listed (a watcher needs no files, and no `stat` per file).
    var listsFiles = true

    private(set) var files: [ScanCandidate] = []
    /// Every folder the walk entered, the root first.
    private(set) var foldersEntered: [String] = []
    private(set) var problems: [ScanProblem] = []
    private(set) var wasCancelled = false

    /// Walks `root` (an absolute, standardized path) and collects the candidate files, sorted by path.
    mutating func walk(_ root: String) {
        var pending = [root]
        while let folder = pending.popLast() {
            if isCancelled() {
                wasCancelled = true
                break
            }
            folderEntered(folder, files.count)
            foldersEntered.append(folder)
            pending += walkOne(folder).sorted(by: >)
        }
        files.sort { $0.path < $1.path }
    }

    /// Lists one folder: candidates go to `files`, subfolders are returned.
    private mutating func walkOne(_ folder: String) -> [String] {
        guard let directory = opendir(folder) else {
            let reason = String(cString: strerror(errno))
            problems.append(ScanProblem(path: folder, message: "\(DisplayText.sanitized(folder)): cannot read folder "
                                        + "(opendir: \(DisplayText.sanitized(reason)))"))
            return []
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var subfolders: [String] = []
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
                subfolders.append(path)
                continue
            }
            guard listsFiles || type == UInt8(DT_UNKNOWN) else { continue }
            guard listsFiles, LibraryScanner.isCandidate(fileName: name) else {
                // DT_UNKNOWN (some file systems) may still be a folder.
                if type == UInt8(DT_UNKNOWN), isFolder(nameBytes, in: descriptor, followLinks: false) { subfolders.append(path) }
                continue
            }
            guard String(validatingUTF8: nameBytes.map { CChar(bitPattern: $0) } + [0]) != nil else {
                // The name is not UTF-8: a Swift path string cannot name the file again.
                problems.append(ScanProblem(path: path, message: "\(DisplayText.sanitized(path)): the file name is not valid "
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
                files.append(ScanCandidate(path: path, size: Int(status.st_size), modified: modified))
            } else if status.st_mode & S_IFMT == S_IFDIR, type == UInt8(DT_UNKNOWN) {
                subfolders.append(path)
            }
        }
        return subfolders
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
