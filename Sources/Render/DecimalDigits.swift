/// ASCII digits of 0…9999, precomputed so SGR colours and cursor positions are written
/// without formatting a String: entry `n` is 4 bytes `[count, d0, d1, d2]` padded, plus a
/// separate thousands path for the rare large cursor coordinates.
struct DecimalDigits {
    static let limit = 1000
    /// `limit × 4` bytes: length then up to three ASCII digits.
    let table: [UInt8]

    init() {
        var table = [UInt8](repeating: 0, count: DecimalDigits.limit * 4)
        for n in 0..<DecimalDigits.limit {
            let digits = Array(String(n).utf8)
            table[n * 4] = UInt8(digits.count)
            for (i, digit) in digits.enumerated() { table[n * 4 + 1 + i] = digit }
        }
        self.table = table
    }

    /// Appends the decimal form of `value` (≥ 0) into room already reserved (at most 20 bytes).
    /// Inlined into the SGR writers: the rare large values go through `appendLarge`, which
    /// keeps this one free of recursion.
    @inline(__always)
    func append(_ value: Int, to output: inout ByteWriter) {
        if value >= DecimalDigits.limit {
            appendLarge(value, to: &output)
            return
        }
        table.withUnsafeBufferPointer { digits in
            let entry = digits.baseAddress! + value &* 4
            let count = entry[0]
            output.append(entry[1])
            if count > 1 { output.append(entry[2]) }
            if count > 2 { output.append(entry[3]) }
        }
    }

    @inline(never)
    private func appendLarge(_ value: Int, to output: inout ByteWriter) {
        append(value / DecimalDigits.limit, to: &output)
        let rest = value % DecimalDigits.limit
        output.append(UInt8(48 + rest / 100))
        output.append(UInt8(48 + (rest / 10) % 10))
        output.append(UInt8(48 + rest % 10))
    }

    /// How many bytes `append` writes for `value`.
    @inline(__always)
    static func width(_ value: Int) -> Int {
        if value < 10 { return 1 }
        if value < 100 { return 2 }
        if value < 1000 { return 3 }
        var digits = 4
        var rest = value / 10_000
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }
}
