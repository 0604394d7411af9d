import Foundation
import Glibc
import PhosphorKit

/// The files the kitty graphics protocol's `t=t` transport hands frames over in, on the
/// terminal's own machine: raw RGB written to memory-backed `/dev/shm` where it exists (else the
/// temporary directory), under a name with `tty-graphics-protocol` in it, which kitty requires
/// before it reads (and then deletes) such a file. UI thread only.
public final class KittyFrameFile {
    private let directory: String
    private let prefix: String
    private var counter = 0

    public init(processID: Int32 = ProcessInfo.processInfo.processIdentifier) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
           FileManager.default.isWritableFile(atPath: "/dev/shm") {
            directory = "/dev/shm"
        } else {
            directory = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
        }
        prefix = "phosphor-tty-graphics-protocol-\(processID)-"
    }

    /// Writes `bytes` to a new file and returns its path (nil when it could not be written:
    /// the caller sends the frame in the escape code instead). Straight from the caller's
    /// memory with write(2): no copy into `Data`, no temporary-and-rename (the name is new and
    /// kitty reads it only after our command names it).
    public func write(_ bytes: UnsafeRawBufferPointer) -> String? {
        counter += 1
        let path = "\(directory)/\(prefix)\(counter).rgb"
        guard let descriptor = try? openFile(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600) else { return nil }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            guard let written = try? systemCall("write", { Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }) else {
                unlink(path)
                return nil
            }
            offset += written
        }
        return path
    }

    public func write(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Removes a file the terminal did not take (the detection probe of a terminal that said no).
    public func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes every file of this process the terminal has not read yet (at the end of a game:
    /// kitty deletes what it reads, but frames still queued when the game stops would stay).
    public func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(prefix) { remove("\(directory)/\(name)") }
    }
}
