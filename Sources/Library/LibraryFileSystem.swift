import Foundation
import PhosphorKit

/// The few file-system decisions `GameLibrary` makes when it opens, behind a seam so tests can
/// play a read-only or full disk: as root, `chmod` does not stop writes, and not every test
/// machine can mount a read-only file system. Any thread (no state).
public struct LibraryFileSystem: Sendable {
    /// Makes sure the database's folder exists (throws what the disk says).
    public var prepareFolder: @Sendable (URL) throws -> Void
    /// How the first open is attempted (`.readWrite` on a real disk).
    var access: SQLiteDatabase.Access

    public static let real = LibraryFileSystem(
        prepareFolder: { try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: true) },
        access: .readWrite)

    /// A disk that refuses every write with `errno` (EROFS for read-only, ENOSPC for full).
    public static func refusingWrites(_ errno: Int32) -> LibraryFileSystem {
        LibraryFileSystem(prepareFolder: { _ in throw SystemError(function: "mkdir", code: errno) }, access: .readWrite)
    }
}
