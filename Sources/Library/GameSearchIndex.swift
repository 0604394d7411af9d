import Foundation
import Glibc

/// An in-memory search index over the games' folded search keys, built once per library load,
/// so a keystroke costs work proportional to the matches rather than to the library.
///
/// The keys sit back to back in one byte buffer. `buildTrigrams()` (once, e.g. just after the
/// browser first drew) adds a posting list per three-byte sequence: a word of three bytes or
/// more is looked up in the shortest list among its trigrams, and only those games are checked.
/// Shorter words check the games already kept (by other words, or by the search this one
/// extends while typing); alone, they fall back to one pass over the buffer.
///
/// Matching is the one `matchesPlainly` defines: every whitespace-separated word of the folded
/// search occurs in the key. Results are indices into `keys`, ascending. A value; any thread.
public struct GameSearchIndex: Sendable {
    /// Every key's UTF-8 bytes, each followed by a 0 byte (no folded text holds one).
    private let bytes: [UInt8]
    /// Where key `i` starts in `bytes`; one more entry at the end.
    private let starts: [Int]
    private var trigrams: TrigramPostings?

    /// Every trigram's posting list (ascending key indices) back to back in one array, found
    /// through `slots`: one allocation for all of them, exactly sized (a dictionary of arrays
    /// grown by appending held twice the bytes, in thousands of blocks).
    struct TrigramPostings: Sendable {
        /// Trigram → its list's number.
        var slots: [UInt32: Int32] = [:]
        /// List n is `postings[starts[n]..<starts[n + 1]]`.
        var starts: [Int32] = []
        var postings: [Int32] = []

        func list(_ trigram: UInt32) -> ArraySlice<Int32>? {
            guard let slot = slots[trigram].map(Int.init) else { return nil }
            return postings[Int(starts[slot])..<Int(starts[slot + 1])]
        }
    }

    public var count: Int { starts.count - 1 }
    public var hasTrigrams: Bool { trigrams != nil }

    /// `keys` are already folded (`GameLibrary.folded`). `suffix(i)`, also folded, is searched
    /// as part of key `i` (the browser's system names): written straight into the buffer, so no
    /// joined copy of every key is ever made.
    public init(keys: [String], suffix: (Int) -> String = { _ in "" }) {
        // Suffixes are made twice (to size the buffer, then to fill it) rather than kept.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.indices.reduce(0) { $0 + keys[$1].utf8.count + suffix($1).utf8.count + 1 })
        var starts: [Int] = []
        starts.reserveCapacity(keys.count + 1)
        for index in keys.indices {
            starts.append(bytes.count)
            bytes += keys[index].utf8
            bytes += suffix(index).utf8
            bytes.append(0)
        }
        starts.append(bytes.count)
        self.bytes = bytes
        self.starts = starts
    }

    /// The trigram posting lists (about 60 ms for 20 000 games in a release build).
    public mutating func buildTrigrams() {
        guard trigrams == nil else { return }
        var built = TrigramPostings()
        // Pass 1 numbers the trigrams and counts each list's keys; pass 2 (the same
        // walk) fills the lists in place. `lastKey` lists a key once however often it has the trigram.
        var counts: [Int32] = []
        var lastKey: [Int32] = []
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<count {
                let start = starts[index], end = starts[index + 1] - 1
                guard end - start >= 3 else { continue }
                for position in start...(end - 3) {
                    let trigram = Self.trigram(buffer, at: position)
                    let slot: Int
                    if let known = built.slots[trigram] {
                        slot = Int(known)
                    } else {
                        slot = counts.count
                        built.slots[trigram] = Int32(slot)
                        counts.append(0)
                        lastKey.append(-1)
                    }
                    if lastKey[slot] != Int32(index) {
                        lastKey[slot] = Int32(index)
                        counts[slot] += 1
                    }
                }
            }
        }
        built.starts.reserveCapacity(counts.count + 1)
        var total: Int32 = 0
        for length in counts {
            built.starts.append(total)
            total += length
        }
        built.starts.append(total)
        counts = []
        var next = Array(built.starts.dropLast())
        lastKey = [Int32](repeating: -1, count: next.count)
        var postings = [Int32](repeating: 0, count: Int(total))
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<count {
                let start = starts[index], end = starts[index + 1] - 1
                guard end - start >= 3 else { continue }
                for position in start...(end - 3) {
                    let slot = Int(built.slots[Self.trigram(buffer, at: position)]!)
                    if lastKey[slot] != Int32(index) {
                        lastKey[slot] = Int32(index)
                        postings[Int(next[slot])] = Int32(index)
                        next[slot] += 1
                    }
                }
            }
        }
        built.postings = postings
        trigrams = built
    }

    private static func trigram(_ buffer: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt32 {
        UInt32(buffer[position]) << 16 | UInt32(buffer[position + 1]) << 8 | UInt32(buffer[position + 2])
    }

    /// The search's words, folded, as bytes.
    public static func words(of search: String) -> [[UInt8]] {
        GameLibrary.folded(search).split(whereSeparator: { $0.isWhitespace }).map { Array($0.utf8) }
    }

    /// The reference definition of a match: every folded word of `search` occurs in `key`.
    public static func matchesPlainly(key: String, search: String) -> Bool {
        matchesPlainly(key: key, foldedWords: GameLibrary.folded(search).split(whereSeparator: { $0.isWhitespace }).map(String.init))
    }

    /// The same with the search already folded and split (a scan of many keys folds it once).
    public static func matchesPlainly(key: String, foldedWords: [String]) -> Bool {
        foldedWords.allSatisfy { key.contains($0) }
    }

    /// Indices of the keys matching `search`, ascending. `within` (ascending) limits the answer
    /// to those indices, e.g. the previous answer when the user typed one more letter.
    public func matching(_ search: String, within: [Int32]? = nil) -> [Int32] {
        let words = Self.words(of: search).sorted { $0.count > $1.count }
        var kept = within
        for word in words {
            if let current = kept {
                kept = current.filter { contains(word, key: Int($0)) }
            } else if word.count >= 3, let trigrams {
                kept = candidates(for: word, in: trigrams).filter { contains(word, key: Int($0)) }
            } else {
                kept = scanAll(for: word)
            }
        }
        return kept ?? Array(0..<Int32(count))
    }

    /// The shortest posting list among the word's trigrams (a superset of its matches).
    private func candidates(for word: [UInt8], in trigrams: TrigramPostings) -> ArraySlice<Int32> {
        var best: ArraySlice<Int32>?
        for position in 0...(word.count - 3) {
            let trigram = UInt32(word[position]) << 16 | UInt32(word[position + 1]) << 8 | UInt32(word[position + 2])
            guard let list = trigrams.list(trigram) else { return [] }
            if best == nil || list.count < best!.count { best = list }
        }
        return best ?? []
    }

    private func contains(_ word: [UInt8], key index: Int) -> Bool {
        let start = starts[index], length = starts[index + 1] - 1 - start
        guard length >= word.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            word.withUnsafeBufferPointer { needle in
                Self.find(needle, in: UnsafeBufferPointer(rebasing: buffer[start..<(start + length)])) != nil
            }
        }
    }

    /// One pass over the whole buffer: each hit names the key it falls in (keys hold no 0 byte,
    /// so a hit never spans two), and the search resumes at the next key.
    private func scanAll(for word: [UInt8]) -> [Int32] {
        guard !word.isEmpty else { return Array(0..<Int32(count)) }
        var found: [Int32] = []
        bytes.withUnsafeBufferPointer { buffer in
            word.withUnsafeBufferPointer { needle in
                var offset = 0
                while offset < buffer.count,
                      let hit = Self.find(needle, in: UnsafeBufferPointer(rebasing: buffer[offset...])) {
                    let key = keyIndex(containing: offset + hit)
                    found.append(Int32(key))
                    offset = starts[key + 1]
                }
            }
        }
        return found
    }

    /// The offset of the first occurrence of `needle` in `haystack`: `memchr` for the first
    /// byte (vectorised in glibc), then `memcmp` (glibc's `memmem` needs _GNU_SOURCE).
    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
            let position = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if memcmp(base + position, needle.baseAddress!, needle.count) == 0 { return position }
            offset = position + 1
        }
        return nil
    }

    /// The key whose bytes include `position` (binary search over `starts`).
    private func keyIndex(containing position: Int) -> Int {
        var low = 0, high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
