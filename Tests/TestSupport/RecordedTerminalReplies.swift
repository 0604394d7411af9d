import Foundation

/// What a real terminal answered to Phosphor's start-up queries, recorded by
/// `Tests/Fixtures/terminal-replies/record.sh` (which says how to record them again): the raw
/// reply bytes, every byte written to the terminal, the tty's size, and how the reply was split
/// across reads. Loaded by the terminal and shell tests. Any thread (immutable).
public struct RecordedTerminalReplies: Sendable {
    /// The folder of the recordings.
    public static let folder = FixtureCore.fixtures.appendingPathComponent("terminal-replies")
    /// The temporary file the recorder offered to the kitty file query (`t=t`).
    public static let probeFile = "/dev/shm/phosphor-tty-graphics-protocol-record-1.rgb"

    /// The recording's name: terminal and Debian version, e.g. `kitty-0.26.5`.
    public let name: String
    /// Everything the terminal sent back within the recording's seconds.
    public let reply: [UInt8]
    /// Everything written to the terminal: the start-up queries, then (when the terminal has the
    /// kitty keyboard protocol) the push-and-ask-again round and the pop at the end.
    public let sent: [UInt8]
    /// `TIOCGWINSZ` in the terminal: columns, rows and the window's pixels (0 when not filled in).
    public let columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int
    /// The reply as it came, one element per `read` (in order; together they are `reply`).
    public let reads: [[UInt8]]

    public init(_ name: String) throws {
        self.name = name
        let base = Self.folder.appendingPathComponent(name)
        reply = Array(try Data(contentsOf: base.appendingPathExtension("reply")))
        sent = Array(try Data(contentsOf: base.appendingPathExtension("sent")))
        let info = try String(contentsOf: base.appendingPathExtension("info"), encoding: .utf8)
        func numbers(after key: String) -> [Int] {
            guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return [] }
            return line.dropFirst(key.count).split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        }
        // "winsize=80x24 pixels=484x316"
        let size = numbers(after: "winsize=")
        guard size.count == 4 else {
            throw NSError(domain: "RecordedTerminalReplies", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "\(name).info: no winsize line"])
        }
        (columns, rows, pixelWidth, pixelHeight) = (size[0], size[1], size[2], size[3])
        // "reads (ms:bytes): 15:89 75:17": every second number is a length.
        let lengths = numbers(after: "reads (ms:bytes): ").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        var reads: [[UInt8]] = []
        var start = 0
        for length in lengths where start + length <= reply.count {
            reads.append(Array(reply[start..<start + length]))
            start += length
        }
        guard start == reply.count else {
            throw NSError(domain: "RecordedTerminalReplies", code: 2,
                          userInfo: [NSLocalizedDescriptionKey: "\(name).info: the reads do not add up to the reply"])
        }
        self.reads = reads
    }
}
