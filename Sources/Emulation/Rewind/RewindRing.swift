import PhosphorKit

/// The states rewind goes back through, newest first, within a byte budget.
///
/// The newest state is kept whole. Every older one is stored as its difference from the state
/// after it: the 8-byte words that changed, XORed (`XORDelta`), compressed. Going back one step
/// decompresses one delta and XORs it into the newest state; taking a new state encodes and
/// compresses one delta. When the budget is exceeded the oldest deltas are dropped: nothing
/// newer depends on them. States may differ in size (nestopia's do): a delta covers the older
/// state's length, with the newer one read as zeros past its end.
///
/// Keeping a state every frame allocates nothing state-sized: the core serializes into a spare
/// buffer (`push(frame:serializing:)`), which then becomes the newest, and the newest before it
/// becomes the spare. Only the delta's few compressed bytes are new memory.
///
/// Threading: one thread (the core thread); it is not shared.
public final class RewindRing {
    /// One stored older state: which frame it was taken before, its size, how many bytes its
    /// runs take before compression, and those runs as stored.
    private struct Delta {
        var frame: UInt64
        var size: Int
        /// 0: the state was the same as the next newer one (nothing stored).
        var encodedCount: Int
        /// Compressed runs, or the runs themselves when compressing did not make them smaller.
        var stored: [UInt8]
        var isCompressed: Bool

        var cost: Int { stored.count + RewindRing.entryOverhead }
    }

    /// What an entry costs besides its stored bytes (its record and the array header).
    static let entryOverhead = 48

    /// The most bytes the ring may hold (deltas, their records and the newest state).
    public let budget: Int
    public let compressor: any StateCompressor
    /// The newest state, whole, and the frame it was taken before (0-based).
    public var newest: (frame: UInt64, bytes: [UInt8])? {
        hasNewest ? (newestFrame, newestBytes) : nil
    }
    private var hasNewest = false
    private var newestFrame: UInt64 = 0
    private var newestBytes: [UInt8] = []
    /// The buffer the next state is serialized into (the newest before the last push, or the
    /// one dropped by the last step back): reused so a push allocates no state-sized array.
    private var spare: [UInt8] = []
    /// Deltas, oldest first, in a circular buffer.
    private var deltas: [Delta?] = []
    private var head = 0
    private var deltaCount = 0
    private var deltaBytes = 0
    /// The runs of the delta being encoded or decoded (kept between calls).
    private var runs: [UInt8] = []

    public init(budget: Int, compressor: any StateCompressor = ZstdCompressor()) {
        self.budget = max(budget, 0)
        self.compressor = compressor
    }

    /// States held (the newest and every delta).
    public var count: Int { hasNewest ? deltaCount + 1 : 0 }

    /// Bytes held: what the budget counts.
    public var usedBytes: Int { deltaBytes + (hasNewest ? newestBytes.count : 0) }

    /// The frame of the oldest state held (as far back as rewind can go).
    public var oldestFrame: UInt64? {
        guard hasNewest else { return nil }
        guard deltaCount > 0, let oldest = deltas[head] else { return newestFrame }
        return oldest.frame
    }

    /// Frames between the oldest and the newest state.
    public var framesHeld: UInt64 {
        guard hasNewest, let oldest = oldestFrame else { return 0 }
        return newestFrame - oldest
    }

    /// Adds `state`, taken before frame `frame`, as the newest. The one that was newest becomes
    /// a delta; the oldest go when over the budget. (Run-ahead's path: it already holds the state.)
    public func push(_ state: [UInt8], frame: UInt64) throws {
        var incoming = state
        try push(&incoming, frame: frame)
    }

    /// Adds the state `serialize` writes into the buffer it is handed (the ring's spare one,
    /// holding an older state: `serialize` sets its size and every byte), taken before frame
    /// `frame`, as the newest. When `serialize` throws, the ring is as it was.
    public func push(frame: UInt64, serializing serialize: (inout [UInt8]) throws -> Void) throws {
        var incoming: [UInt8] = []
        swap(&incoming, &spare)  // the spare stays uniquely referenced: no copy on write
        do {
            try serialize(&incoming)
        } catch {
            swap(&incoming, &spare)
            throw error
        }
        try push(&incoming, frame: frame)
    }

    /// Drops the newest state; the one before it (rebuilt from its delta) becomes the newest.
    /// Returns false when nothing older is held (the ring is then empty).
    @discardableResult
    public func dropNewest() throws -> Bool {
        guard hasNewest else { return false }
        guard deltaCount > 0 else {
            forgetNewest()
            return false
        }
        let index = (head + deltaCount - 1) % deltas.count
        let delta = deltas[index]!
        deltas[index] = nil
        deltaCount -= 1
        deltaBytes -= delta.cost
        // The older state: the newest, cut or padded with zeros to its size, with the changes
        // XORed back in. Built in the spare buffer; the dropped newest becomes the spare.
        var older: [UInt8] = []
        swap(&older, &spare)
        Self.copy(newestBytes, into: &older, count: delta.size)
        if delta.encodedCount > 0 {
            if delta.isCompressed {
                if runs.count < delta.encodedCount { Self.resize(&runs, to: delta.encodedCount) }
                try runs.withUnsafeMutableBytes {
                    try compressor.decompress(delta.stored, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<delta.encodedCount]))
                }
                try runs.withUnsafeBytes { encoded in
                    try older.withUnsafeMutableBytes { try XORDelta.apply(UnsafeRawBufferPointer(rebasing: encoded[0..<delta.encodedCount]), to: $0) }
                }
            } else {
                try delta.stored.withUnsafeBytes { encoded in
                    try older.withUnsafeMutableBytes { try XORDelta.apply(encoded, to: $0) }
                }
            }
        }
        swap(&older, &newestBytes)
        spare = older
        newestFrame = delta.frame
        return true
    }

    /// Forgets every state (a state load or a reset: the past no longer leads here).
    public func removeAll() {
        forgetNewest()
        deltas = []
        head = 0
        deltaCount = 0
        deltaBytes = 0
    }

    // MARK: Internals

    /// Makes `incoming` the newest state (taking its buffer), the newest before it a delta, and
    /// that one's buffer the spare.
    private func push(_ incoming: inout [UInt8], frame: UInt64) throws {
        if hasNewest {
            append(try makeDelta(older: newestBytes, frame: newestFrame, newer: incoming))
        }
        swap(&incoming, &newestBytes)
        spare = incoming
        newestFrame = frame
        hasNewest = true
        while usedBytes > budget, deltaCount > 0 { dropOldest() }
        if usedBytes > budget { forgetNewest() }  // a single state larger than the whole budget
    }

    private func makeDelta(older: [UInt8], frame: UInt64, newer: [UInt8]) throws -> Delta {
        let bound = XORDelta.bound(olderCount: older.count)
        if runs.count < bound { Self.resize(&runs, to: bound) }
        let encodedCount = older.withUnsafeBytes { olderBytes in
            newer.withUnsafeBytes { newerBytes in
                runs.withUnsafeMutableBytes { XORDelta.encode(older: olderBytes, newer: newerBytes, into: $0) }
            }
        }
        guard encodedCount > 0 else {
            return Delta(frame: frame, size: older.count, encodedCount: 0, stored: [], isCompressed: false)
        }
        let compressed = try runs.withUnsafeBytes { try compressor.compress(UnsafeRawBufferPointer(rebasing: $0[0..<encodedCount])) }
        if compressed.count < encodedCount {
            return Delta(frame: frame, size: older.count, encodedCount: encodedCount, stored: compressed, isCompressed: true)
        }
        return Delta(frame: frame, size: older.count, encodedCount: encodedCount, stored: Array(runs[0..<encodedCount]),
                     isCompressed: false)
    }

    private func forgetNewest() {
        hasNewest = false
        // The buffer is kept as the spare (a state load empties the ring; play goes on).
        if spare.isEmpty { swap(&spare, &newestBytes) }
        newestBytes = []
    }

    /// `target` becomes the first `count` bytes of `source`, zeros past its end, reusing
    /// `target`'s memory.
    private static func copy(_ source: [UInt8], into target: inout [UInt8], count: Int) {
        resize(&target, to: count)
        let shared = min(count, source.count)
        target.withUnsafeMutableBytes { destination in
            source.withUnsafeBytes { from in
                if shared > 0 { destination.baseAddress!.copyMemory(from: from.baseAddress!, byteCount: shared) }
                if count > shared { (destination.baseAddress! + shared).initializeMemory(as: UInt8.self, repeating: 0, count: count - shared) }
            }
        }
    }

    /// Sets `bytes`' count without giving its memory back (new bytes are zeros).
    private static func resize(_ bytes: inout [UInt8], to count: Int) {
        if bytes.count > count {
            bytes.removeLast(bytes.count - count)
        } else if bytes.count < count {
            bytes.append(contentsOf: repeatElement(0, count: count - bytes.count))
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
