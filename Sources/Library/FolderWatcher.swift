internal import CSystem
import Foundation
import Glibc
import PhosphorKit

/// Tells when files appear in, vanish from or are rewritten in the library folders (or any
/// folder below them), with inotify, so the browser can rescan without being asked. It only
/// says *that* something changed; the incremental scan finds out what.
///
/// Threading: one thread (the UI thread) for its whole life. `takeChanges()` never blocks.
public final class FolderWatcher {
    private let descriptor: Int32
    /// Watched folder by watch descriptor (to name folders created inside them).
    private var folders: [Int32: String] = [:]
    /// The first failure to add a watch (usually the inotify watch limit), logged once.
    public private(set) var limitNote: String?

    /// Watches every folder under each of `roots` (hidden ones skipped, as the scan does).
    public init(roots: [URL]) throws {
        descriptor = try systemCall("inotify_init1") { csystem_inotify_init() }
        for root in roots {
            var walker = FolderWalker(root: root.standardizedFileURL.path, listsFiles: false)
            while walker.nextFolder() != nil {}
            for folder in walker.foldersEntered { watch(folder) }
        }
    }

    deinit { close(descriptor) }

    public var watchedFolderCount: Int { folders.count }

    private func watch(_ folder: String) {
        do {
            let watch = try systemCall("inotify_add_watch(\(folder))") { csystem_inotify_watch_folder(descriptor, folder) }
            folders[watch] = folder
        } catch {
            if limitNote == nil {
                limitNote = "\(DisplayText.sanitized("\(error)")): new games there show after a rescan (F5)"
                Log.warning("library: \(limitNote!)")
            }
        }
    }

    /// True when anything changed since the last call (reads every pending event). A folder
    /// created meanwhile is watched from now on; its files count as a change.
    public func takeChanges() -> Bool {
        var changed = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { break }   // EAGAIN: nothing more pending
            var offset = 0
            while offset + 16 <= count {
                let watched = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[(offset + 16)..<(offset + 16 + nameLength)])
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += 16 + nameLength
                if name.hasPrefix(".") { continue }   // hidden files and editors' temporary files
                changed = true
                let isFolder = mask & 0x4000_0000 != 0   // IN_ISDIR
                let arrived = mask & (0x100 | 0x80) != 0   // IN_CREATE | IN_MOVED_TO
                if isFolder, arrived, let parent = folders[watched] {
                    // Watch the new folder and whatever it already holds (a folder moved in whole).
                    var walker = FolderWalker(root: parent + "/" + name, listsFiles: false)
                    while walker.nextFolder() != nil {}
                    for folder in walker.foldersEntered { watch(folder) }
                }
                if mask & 0x8000 != 0 { folders[watched] = nil }   // IN_IGNORED: the folder is gone
            }
        }
        return changed
    }
}
