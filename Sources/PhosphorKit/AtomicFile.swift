import Foundation
import Glibc

/// The one way Phosphor writes a user's file: a temporary file in the same folder, fsync, rename
/// over the target, fsync the folder. A crash or a full disk leaves either the old or the new file,
/// never a torn one. Any thread.
///
/// A process killed between creating its temporary and the rename (SIGKILL, power loss) leaves
/// that temporary behind; the next write of the same file removes temporaries of its own name
/// whose writer process is gone, so they never pile up (a live writer's file is left alone).
public enum AtomicFile {
    /// A failed save, named after the file the user knows (not the temporary one):
    /// `game.srm not saved: No space left on device`.
    public struct WriteError: Error, CustomStringConvertible {
        public var file: String
        public var underlying: Error
        public var reason: String {
            if let system = underlying as? SystemError { return String(cString: strerror(system.code)) }
            return (underlying as NSError).localizedDescription  // not the whole NSError dump
        }
        public var description: String { "\(file) not saved: \(reason)" }
    }

    public static func write(_ data: some DataProtocol, to url: URL) throws {
        do {
            try writeSteps(data, to: url)
        } catch {
            throw WriteError(file: url.lastPathComponent, underlying: error)
        }
    }

    private static func writeSteps(_ data: some DataProtocol, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        removeStaleTemporaries(of: url)
        let temporary = folder.appendingPathComponent(
            "\(temporaryPrefix(for: url))\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = try openFile(temporary.path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            let bytes = [UInt8](data)
            var offset = 0
            while offset < bytes.count {
                let written = try bytes.withUnsafeBytes { raw in
                    try systemCall("write(\(temporary.lastPathComponent))") {
                        Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    }
                }
                offset += written
            }
            try systemCall("fsync(\(temporary.lastPathComponent))") { fsync(descriptor) }
        }
        try systemCall("rename(\(url.lastPathComponent))") { rename(temporary.path, url.path) }
        succeeded = true
        let folderDescriptor = try openFile(folder.path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(folderDescriptor) }
        try systemCall("fsync(\(folder.lastPathComponent))") { fsync(folderDescriptor) }
    }

    /// `.<name>.tmp-`: followed by the writer's pid, a dash and a random number.
    static func temporaryPrefix(for url: URL) -> String { ".\(url.lastPathComponent).tmp-" }

    /// Deletes `.<name>.tmp-<pid>-<n>` files in the target's folder whose process no longer exists.
    static func removeStaleTemporaries(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                  pid != getpid(), kill(pid, 0) != 0, currentErrno() == ESRCH else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}
