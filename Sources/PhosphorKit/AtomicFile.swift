import Foundation
import Glibc

/// The one way Phosphor writes a user's file: a temporary file in the same folder, fsync, rename
/// over the target, fsync the folder. A crash or a full disk leaves either the old or the new file,
/// never a torn one. Any thread.
public enum AtomicFile {
    public static func write(_ data: some DataProtocol, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
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
}
