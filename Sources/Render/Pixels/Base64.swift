/// Standard base64 (RFC 4648, with padding), appended straight into an output buffer: the kitty
/// graphics protocol's payload encoding. Any thread.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encodedLength(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    static func append(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        let count = bytes.count
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: encodedLength(count)))
        output.withUnsafeMutableBufferPointer { out in
            alphabet.withUnsafeBufferPointer { table in
                var to = start
                var from = 0
                while from + 3 <= count {
                    let value = UInt32(bytes[from]) << 16 | UInt32(bytes[from + 1]) << 8 | UInt32(bytes[from + 2])
                    out[to] = table[Int(value >> 18)]
                    out[to + 1] = table[Int(value >> 12 & 63)]
                    out[to + 2] = table[Int(value >> 6 & 63)]
                    out[to + 3] = table[Int(value & 63)]
                    from += 3
                    to += 4
                }
                let left = count - from
                if left > 0 {
                    let value = UInt32(bytes[from]) << 16 | (left == 2 ? UInt32(bytes[from + 1]) << 8 : 0)
                    out[to] = table[Int(value >> 18)]
                    out[to + 1] = table[Int(value >> 12 & 63)]
                    out[to + 2] = left == 2 ? table[Int(value >> 6 & 63)] : UInt8(ascii: "=")
                    out[to + 3] = UInt8(ascii: "=")
                }
            }
        }
    }

    static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        bytes.withUnsafeBytes { append($0, to: &output) }
    }
}
