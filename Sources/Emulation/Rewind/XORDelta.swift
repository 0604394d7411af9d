import PhosphorKit

/// The difference between two states as the rewind ring stores it before compressing: only the
/// 8-byte words that changed, XORed (`older ^ newer`), in runs. A game changes a few hundred
/// bytes of its state a frame (gambatte: about 90 of 51 220), so the runs are a few hundred
/// bytes and the compressor never sees the kilobytes of zeros a whole XOR buffer would hold
/// (compressing those zeros was most of a rewind state's cost).
///
/// The format, repeated until the end: the number of unchanged words skipped since the last
/// run, the number of changed words, then those words' XORs (8 bytes each, little-endian), the
/// two counts as LEB128 varints. Words are counted over the older state's length rounded up
/// to 8; past either state's end its bytes are read as zeros. No runs at all: nothing changed.
///
/// Threading: pure functions; the ring calls them on the core thread.
enum XORDelta {
    /// The most bytes `encode` writes for an older state of `count` bytes: every other word
    /// changed, each a run with two varints of at most 10 bytes.
    static func bound(olderCount count: Int) -> Int {
        let words = (count + 7) / 8
        return words * 8 + (words / 2 + 1) * 20
    }

    /// Writes the runs that turn `newer` back into `older` into `output` (at least
    /// `bound(olderCount:)` bytes) and returns how many bytes it wrote (0: nothing changed).
    static func encode(older: UnsafeRawBufferPointer, newer: UnsafeRawBufferPointer,
                       into output: UnsafeMutableRawBufferPointer) -> Int {
        precondition(output.count >= bound(olderCount: older.count))
        let words = (older.count + 7) / 8
        // Words both states hold whole: read straight, no end checks.
        let whole = min(older.count, newer.count) / 8
        var written = 0
        var runStart = 0  // first word after the previous run
        var word = 0
        while word < words {
            // Skip unchanged words, eight at a time where both states hold them whole: one vector
            // compare per 64 bytes (the compiler made the eight words eight compares and branches,
            // most of this function's time on a state that changed a hundred bytes).
            while word + 8 <= whole {
                let olderBlock = older.loadUnaligned(fromByteOffset: word * 8, as: SIMD8<UInt64>.self)
                let newerBlock = newer.loadUnaligned(fromByteOffset: word * 8, as: SIMD8<UInt64>.self)
                if olderBlock != newerBlock { break }
                word += 8
            }
            while word < words, wordXOR(older, newer, word, whole: whole) == 0 { word += 1 }
            guard word < words else { break }
            // A run: every changed word from here to the next unchanged one.
            var end = word + 1
            while end < words, wordXOR(older, newer, end, whole: whole) != 0 { end += 1 }
            written += writeVarint(word - runStart, to: output, at: written)
            written += writeVarint(end - word, to: output, at: written)
            for index in word..<end {
                output.storeBytes(of: wordXOR(older, newer, index, whole: whole).littleEndian,
                                  toByteOffset: written, as: UInt64.self)
                written += 8
            }
            runStart = end
            word = end
        }
        return written
    }

    /// XORs the runs in `encoded` into `target` (the newer state, cut or padded with zeros to the
    /// older one's length), which then holds the older state. Throws when the runs do not fit
    /// `target` (damaged).
    static func apply(_ encoded: UnsafeRawBufferPointer, to target: UnsafeMutableRawBufferPointer) throws {
        let words = (target.count + 7) / 8
        var read = 0
        var word = 0
        while read < encoded.count {
            guard let skip = readVarint(encoded, at: &read), let count = readVarint(encoded, at: &read),
                  count > 0, skip <= words - word, count <= words - word - skip,
                  count <= (encoded.count - read) / 8 else { throw damaged(encoded.count) }
            word += skip
            for _ in 0..<count {
                let change = UInt64(littleEndian: encoded.loadUnaligned(fromByteOffset: read, as: UInt64.self))
                read += 8
                let offset = word * 8
                if offset + 8 <= target.count {
                    let value = UInt64(littleEndian: target.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ change
                    target.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
                } else {
                    for index in offset..<target.count {
                        target[index] ^= UInt8(truncatingIfNeeded: change >> UInt64(8 * (index - offset)))
                    }
                }
                word += 1
            }
        }
    }

    // MARK: Internals

    /// Word `word` of `older ^ newer` where both hold it whole.
    @inline(__always)
    private static func xorWord(_ older: UnsafeRawBufferPointer, _ newer: UnsafeRawBufferPointer, _ word: Int) -> UInt64 {
        older.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
            ^ newer.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
    }

    /// Word `word` of `older ^ newer` as a little-endian number, either state read as zeros past
    /// its end.
    @inline(__always)
    private static func wordXOR(_ older: UnsafeRawBufferPointer, _ newer: UnsafeRawBufferPointer, _ word: Int,
                                whole: Int) -> UInt64 {
        if word < whole { return UInt64(littleEndian: xorWord(older, newer, word)) }
        return paddedWord(older, word) ^ paddedWord(newer, word)
    }

    /// Word `word` of `bytes` as a little-endian number, zeros past its end.
    private static func paddedWord(_ bytes: UnsafeRawBufferPointer, _ word: Int) -> UInt64 {
        let offset = word * 8
        if offset + 8 <= bytes.count {
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var value: UInt64 = 0
        if offset < bytes.count {
            for index in offset..<bytes.count { value |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
        }
        return value
    }

    private static func writeVarint(_ value: Int, to output: UnsafeMutableRawBufferPointer, at start: Int) -> Int {
        var rest = UInt(value)
        var offset = start
        while rest >= 0x80 {
            output[offset] = UInt8(truncatingIfNeeded: rest) | 0x80
            rest >>= 7
            offset += 1
        }
        output[offset] = UInt8(rest)
        return offset + 1 - start
    }

    private static func readVarint(_ input: UnsafeRawBufferPointer, at offset: inout Int) -> Int? {
        var value: UInt = 0
        var shift: UInt = 0
        while offset < input.count, shift < 63 {
            let byte = input[offset]
            offset += 1
            value |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { return value <= UInt(Int.max) ? Int(value) : nil }
            shift += 7
        }
        return nil
    }

    private static func damaged(_ count: Int) -> SystemError {
        SystemError(function: "XORDelta.apply", code: 0, detail: "a rewind delta of \(count) bytes does not fit its state (damaged)")
    }
}
