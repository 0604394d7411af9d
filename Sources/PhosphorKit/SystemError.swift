internal import CSystem
import Glibc

/// A failed C call: which function, and errno (or another code the library returned).
public struct SystemError: Error, CustomStringConvertible, Equatable {
    public let function: String
    public let code: Int32
    public let detail: String?

    public init(function: String, code: Int32, detail: String? = nil) {
        self.function = function
        self.code = code
        self.detail = detail
    }

    public var description: String {
        if let detail { return "\(function): \(detail)" }
        return "\(function): \(String(cString: strerror(code)))"
    }
}

/// Runs a POSIX call that returns -1 on failure, retrying on EINTR, and throws with the function's name.
@discardableResult
public func systemCall<Result: BinaryInteger>(_ function: String, _ body: () -> Result) throws -> Result {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = csystem_errno()
        if code == EINTR { continue }
        throw SystemError(function: function, code: code)
    }
}

/// The current errno, for wrappers around calls with other failure conventions.
public func currentErrno() -> Int32 { csystem_errno() }

/// Terminal size in cells of the tty behind `descriptor`.
public func terminalSize(of descriptor: Int32) throws -> (rows: Int, columns: Int) {
    var rows: UInt16 = 0
    var columns: UInt16 = 0
    try systemCall("ioctl(TIOCGWINSZ)") { csystem_window_size(descriptor, &rows, &columns) }
    return (Int(rows), Int(columns))
}

/// open(2) with EINTR retry.
public func openFile(_ path: String, flags: Int32, mode: UInt32 = 0o644) throws -> Int32 {
    try systemCall("open(\(path))") { csystem_open(path, flags, mode) }
}

/// Switches O_NONBLOCK on or off for a descriptor.
public func setNonBlocking(_ descriptor: Int32, _ enabled: Bool) throws {
    try systemCall("fcntl(O_NONBLOCK)") { csystem_set_nonblocking(descriptor, enabled ? 1 : 0) }
}

/// The text of a NUL-terminated C buffer that a wrapper filled.
public func string(fromCBuffer buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
