/// tmux's passthrough: `ESC P tmux; <sequence, every ESC doubled> ESC \` goes to the terminal
/// tmux runs in, untouched, when the pane allows it (tmux ≥ 3.3, `set -g allow-passthrough on`).
/// Kitty graphics queries and images travel this way inside tmux. Any thread (stateless).
public enum TmuxPassthrough {
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        var output = Array("\u{1B}Ptmux;".utf8)
        output.reserveCapacity(bytes.count + bytes.count / 64 + 16)
        for byte in bytes {
            output.append(byte)
            if byte == 0x1B { output.append(0x1B) }
        }
        output += [0x1B, UInt8(ascii: "\\")]
        return output
    }

    /// Wraps each escape string (up to and including its `ESC \`) on its own, with whatever
    /// precedes it (a cursor move): a picture's many kitty chunks never make one huge
    /// passthrough string that tmux would have to hold whole.
    public static func wrapEach(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 32 + 64)
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                output += wrap(Array(bytes[start..<index + 2]))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        if start < bytes.count { output += wrap(Array(bytes[start...])) }
        return output
    }
}
