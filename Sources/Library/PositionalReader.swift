import Foundation
import PhosphorKit

/// `pread` access to one open archive file with the bounds check every field of a hand-read
/// directory needs: a region past the end is a "cut short" error, never a short read. Used by
/// `ZipDirectory` and `SevenZipDirectory`; any thread (pread keeps no file position).
struct PositionalReader {
    let descriptor: Int32
    let size: UInt64
    let name: String
    /// The archive-format error for a reason ("damaged zip directory", "damaged 7z header").
    let damaged: (String) -> ArchiveError

    /// Exactly `count` bytes at `offset`, or a "cut short" error when the file ends first.
    func bytes(at offset: UInt64, count: Int, what: String) throws -> [UInt8] {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
            throw damaged("\(what) at offset \(offset) runs past the end of the file (\(size) bytes): cut short?")
        }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try buffer.withUnsafeMutableBytes { raw in
                try systemCall("pread(\(URL(fileURLWithPath: name).lastPathComponent))") {
                    pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                }
            }
            if got == 0 { throw damaged("\(what) at offset \(offset): the file ended while reading it") }
            filled += got
        }
        return buffer
    }

    /// Opens `archive` read-only and runs `body` with a reader over it.
    static func withFile<Result>(_ archive: URL, damaged: @escaping (String) -> ArchiveError,
                                 _ body: (PositionalReader) throws -> Result) throws -> Result {
        let descriptor = try openFile(archive.path, flags: O_RDONLY)
        defer { close(descriptor) }   // read-only: nothing to lose if close fails; never retried (Linux)
        var status = stat()
        try systemCall("fstat(\(archive.lastPathComponent))") { fstat(descriptor, &status) }
        return try body(PositionalReader(descriptor: descriptor, size: UInt64(status.st_size), name: archive.path,
                                         damaged: damaged))
    }
}
