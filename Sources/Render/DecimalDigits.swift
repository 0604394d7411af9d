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

    /// Appends the decimal form of `value` (≥ 0).
    @inline(__always)
    func append(_ value: Int, to output: inout [UInt8]) {
        if value >= DecimalDigits.limit {
            append(value / DecimalDigits.limit, to: &output)
            let rest = value % DecimalDigits.limit
            output.append(UInt8(48 + rest / 100))
            output.append(UInt8(48 + (rest / 10) % 10))
            output.append(UInt8(48 + rest % 10))
            return
        }
        let base = value &* 4
        let count = Int(table[base])
        output.append(table[base &+ 1])
        if count > 1 { output.append(table[base &+ 2]) }
        if count > 2 { output.append(table[base &+ 3]) }
    }

    /// How many bytes `append` writes for `value`.
    @inline(__always)
    static func width(_ value: Int) -> Int {
        value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : 1 + width(value / 10)
    }
}
