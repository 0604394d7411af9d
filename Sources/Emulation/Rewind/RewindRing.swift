import PhosphorKit

/// The states rewind goes back through, newest first, within a byte budget.
///
/// The newest state is kept whole. Every older one is stored as its difference from the state
/// after it (XOR, byte by byte: unchanged bytes become zeros), compressed. Going back one step
/// decompresses one delta and XORs it into the newest state; taking a new state compresses one
/// delta. When the budget is exceeded the oldest deltas are dropped: nothing newer depends on
/// them. States may differ in size (nestopia's do): a delta covers the older state's length,
/// with the newer one read as zeros past its end.
///
/// Threading: one thread (the core thread); it is not shared.
public final class RewindRing {
    /// One stored older state: which frame it was taken before, its size, and its compressed
    /// XOR against the next newer state.
    private struct Delta {
        var frame: UInt64
        var size: Int
        var compressed: [UInt8]

        var cost: Int { compressed.count + RewindRing.entryOverhead }
    }

    /// What an entry costs besides its compressed bytes (its record and the array header).
    static let entryOverhead = 48

    /// The most bytes the ring may hold (deltas, their records and the newest state).
    public let budget: Int
    public let compressor: any StateCompressor
    /// The newest state, whole, and the frame it was taken before (0-based).
    public private(set) var newest: (frame: UInt64, bytes: [UInt8])?
    /// Deltas, oldest first, in a circular buffer.
    private var deltas: [Delta?] = []
    private var head = 0
    private var deltaCount = 0
    private var deltaBytes = 0
    private var scratch: [UInt8] = []

    public init(budget: Int, compressor: any StateCompressor = ZstdCompressor()) {
        self.budget = max(budget, 0)
        self.compressor = compressor
    }

    /// States held (the newest and every delta).
    public var count: Int { newest == nil ? 0 : deltaCount + 1 }

    /// Bytes held: what the budget counts.
    public var usedBytes: Int { deltaBytes + (newest?.bytes.count ?? 0) }

    /// The frame of the oldest state held (as far back as rewind can go).
    public var oldestFrame: UInt64? {
        guard let newest else { return nil }
        guard deltaCount > 0, let oldest = deltas[head] else { return newest.frame }
        return oldest.frame
    }

    /// Frames between the oldest and the newest state.
    public var framesHeld: UInt64 {
        guard let newest, let oldest = oldestFrame else { return 0 }
        return newest.frame - oldest
    }

    /// Adds `state`, taken before frame `frame`, as the newest. The one that was newest becomes
    /// a delta (one compression); the oldest go when over the budget.
    public func push(_ state: [UInt8], frame: UInt64) throws {
        if let previous = newest {
            let compressed = try compressDelta(older: previous.bytes, newer: state)
            append(Delta(frame: previous.frame, size: previous.bytes.count, compressed: compressed))
        }
        newest = (frame, state)
        while usedBytes > budget, deltaCount > 0 { dropOldest() }
        if usedBytes > budget { newest = nil }  // a single state larger than the whole budget
    }

    /// Drops the newest state; the one before it (rebuilt from its delta) becomes the newest.
    /// Returns false when nothing older is held (the ring is then empty).
    @discardableResult
    public func dropNewest() throws -> Bool {
        guard let current = newest else { return false }
        guard deltaCount > 0 else {
            newest = nil
            return false
        }
        let index = (head + deltaCount - 1) % deltas.count
        let delta = deltas[index]!
        deltas[index] = nil
        deltaCount -= 1
        deltaBytes -= delta.cost
        var older = [UInt8](repeating: 0, count: delta.size)
        try older.withUnsafeMutableBytes { try compressor.decompress(delta.compressed, into: $0) }
        Self.xor(current.bytes, into: &older)
        newest = (delta.frame, older)
        return true
    }

    /// Forgets every state (a state load or a reset: the past no longer leads here).
    public func removeAll() {
        newest = nil
        deltas = []
        head = 0
        deltaCount = 0
        deltaBytes = 0
    }

    // MARK: Internals

    private func compressDelta(older: [UInt8], newer: [UInt8]) throws -> [UInt8] {
        if scratch.count != older.count { scratch = [UInt8](repeating: 0, count: older.count) }
        Self.xor(older, newer, into: &scratch)
        return try scratch.withUnsafeBytes { try compressor.compress($0) }
    }

    /// `target[i] ^= source[i]` for every byte of `target` (source read as zeros past its end).
    /// Only going back (rarely): it copies `target` first.
    static func xor(_ source: [UInt8], into target: inout [UInt8]) {
        let original = target
        xor(original, source, into: &target)
    }

    /// `target[i] = first[i] ^ second[i]` for every byte of `target` (which is `first`'s
    /// length; `second` read as zeros past its end): one pass, no copy of `first` first.
    static func xor(_ first: [UInt8], _ second: [UInt8], into target: inout [UInt8]) {
        precondition(target.count == first.count)
        let shared = min(first.count, second.count)
        let words = shared / 8
        first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in
                target.withUnsafeMutableBytes { to in
                    for word in 0..<words {
                        let offset = word * 8
                        let value = a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        to.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
                    }
                    for index in (words * 8)..<shared { to[index] = a[index] ^ b[index] }
                    for index in shared..<a.count { to[index] = a[index] }
                }
            }
        }
    }

    private func append(_ delta: Delta) {
        if deltaCount == deltas.count {
            // Grow: unroll the circle into a bigger array, oldest first.
            var grown: [Delta?] = (0..<deltaCount).map { deltas[(head + $0) % deltas.count] }
            grown += [Delta?](repeating: nil, count: max(deltaCount, 64))
            deltas = grown
            head = 0
        }
        deltas[(head + deltaCount) % deltas.count] = delta
        deltaCount += 1
        deltaBytes += delta.cost
    }

    private func dropOldest() {
        guard deltaCount > 0, let oldest = deltas[head] else { return }
        deltas[head] = nil
        head = (head + 1) % deltas.count
        deltaCount -= 1
        deltaBytes -= oldest.cost
    }
}
