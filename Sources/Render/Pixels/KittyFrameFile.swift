import Foundation

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
    /// the caller sends the frame in the escape code instead).
    public func write(_ bytes: [UInt8]) -> String? {
        counter += 1
        let path = "\(directory)/\(prefix)\(counter).rgb"
        return FileManager.default.createFile(atPath: path, contents: Data(bytes)) ? path : nil
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
