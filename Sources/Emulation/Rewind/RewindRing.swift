/// The states rewind goes back through, newest first, within a byte budget.
///
/// The newest state is kept whole. Every older one is stored as its difference from the state
/// after it: the 8-byte words that changed, XORed (`XORDelta`). The differences of 16 states in
/// a row are compressed together, as one block: one compressor call per 16 frames (a call's own
/// cost, its tables, was most of what compressing a small delta cost) over runs that repeat
/// from frame to frame (the same counters change), so a block is smaller than its 16 deltas
/// compressed one by one. The newest deltas wait uncompressed in the open block. Going back
/// one step XORs one delta into the newest state (decompressing a block once every 16 steps);
/// when the budget is exceeded the oldest block goes: nothing newer depends on it. States may
/// differ in size (nestopia's do): a delta covers the older state's length, with the newer one
/// read as zeros past its end.
///
/// Keeping a state every frame allocates nothing state-sized: the core serializes into a spare
/// buffer (`push(frame:serializing:)`), which then becomes the newest, and the newest before it
/// becomes the spare.
///
/// Threading: one thread (the core thread); it is not shared.
public final class RewindRing {
    /// One stored older state: which frame it was taken before, its size, and how many bytes of
    /// its block's runs are its own (0: it was the same as the next newer state).
    private struct Delta {
        var frame: UInt64
        var size: Int
        var runsCount: Int
    }

    /// Deltas of states in a row, oldest first, their runs one after the other, compressed (or
    /// as they are when compressing did not make them smaller).
    private struct Block {
        var deltas: [Delta]
        var runsCount: Int
        var stored: [UInt8]
        var isCompressed: Bool

        var cost: Int { stored.count + RewindRing.entryOverhead * (deltas.count + 1) }
    }

    /// What an entry (a delta or a block) costs besides its bytes: its record and array header.
    static let entryOverhead = 48
    /// Deltas compressed together.
    static let deltasPerBlock = 16

    /// The most bytes the ring may hold (blocks, the open block, their records and the newest
    /// state).
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
    /// Sealed blocks, oldest first, in a circular buffer.
    private var blocks: [Block?] = []
    private var head = 0
    private var blockCount = 0
    private var blockBytes = 0
    private var blockDeltas = 0
    /// The open block: the newest deltas, oldest first, and their runs, uncompressed, in the
    /// first `openRunsCount` bytes of `openRuns` (a buffer kept between blocks).
    private var open: [Delta] = []
    private var openRuns: [UInt8] = []
    private var openRunsCount = 0

    public init(budget: Int, compressor: any StateCompressor = ZstdCompressor()) {
        self.budget = max(budget, 0)
        self.compressor = compressor
        open.reserveCapacity(Self.deltasPerBlock)
    }

    /// States held (the newest and every delta).
    public var count: Int { hasNewest ? blockDeltas + open.count + 1 : 0 }

    /// Bytes held: what the budget counts.
    public var usedBytes: Int {
        blockBytes + openRunsCount + open.count * Self.entryOverhead + (hasNewest ? newestBytes.count : 0)
    }

    /// The frame of the oldest state held (as far back as rewind can go).
    public var oldestFrame: UInt64? {
        guard hasNewest else { return nil }
        if blockCount > 0, let oldest = blocks[head] { return oldest.deltas[0].frame }
        return open.first?.frame ?? newestFrame
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
        if open.isEmpty, blockCount > 0 { try unsealNewestBlock() }
        guard let delta = open.popLast() else {
            forgetNewest()
            return false
        }
        let runsStart = openRunsCount - delta.runsCount
        // The older state: the newest, cut or padded with zeros to its size, with the changes
        // XORed back in. Built in the spare buffer; the dropped newest becomes the spare.
        var older: [UInt8] = []
        swap(&older, &spare)
        Self.copy(newestBytes, into: &older, count: delta.size)
        if delta.runsCount > 0 {
            try openRuns.withUnsafeBytes { runs in
                try older.withUnsafeMutableBytes {
                    try XORDelta.apply(UnsafeRawBufferPointer(rebasing: runs[runsStart..<openRunsCount]), to: $0)
                }
            }
        }
        openRunsCount = runsStart
        swap(&older, &newestBytes)
        spare = older
        newestFrame = delta.frame
        return true
    }

    /// Forgets every state (a state load or a reset: the past no longer leads here).
    public func removeAll() {
        forgetNewest()
        blocks = []
        head = 0
        blockCount = 0
        blockBytes = 0
        blockDeltas = 0
        open.removeAll(keepingCapacity: true)
        openRunsCount = 0
    }

    // MARK: Internals

    /// Makes `incoming` the newest state (taking its buffer), the newest before it a delta, and
    /// that one's buffer the spare.
    private func push(_ incoming: inout [UInt8], frame: UInt64) throws {
        if hasNewest {
            // Sealed first: when compressing fails, the ring is as it was.
            if open.count >= Self.deltasPerBlock { try sealOpenBlock() }
            appendDelta(older: newestBytes, frame: newestFrame, newer: incoming)
        }
        swap(&incoming, &newestBytes)
        spare = incoming
        newestFrame = frame
        hasNewest = true
        while usedBytes > budget, blockDeltas + open.count > 0 { dropOldest() }
        if usedBytes > budget { forgetNewest() }  // a single state larger than the whole budget
    }

    /// Encodes `older` against `newer` onto the end of the open block's runs.
    private func appendDelta(older: [UInt8], frame: UInt64, newer: [UInt8]) {
        let needed = openRunsCount + XORDelta.bound(olderCount: older.count)
        if openRuns.count < needed { openRuns.resize(to: max(needed, openRuns.count * 2)) }
        let start = openRunsCount
        let written = older.withUnsafeBytes { olderBytes in
            newer.withUnsafeBytes { newerBytes in
                openRuns.withUnsafeMutableBytes { runs in
                    XORDelta.encode(older: olderBytes, newer: newerBytes,
                                    into: UnsafeMutableRawBufferPointer(rebasing: runs[start...]))
                }
            }
        }
        openRunsCount += written
        open.append(Delta(frame: frame, size: older.count, runsCount: written))
    }

    /// Compresses the open block's runs into a sealed block and empties it.
    private func sealOpenBlock() throws {
        var block = Block(deltas: open, runsCount: openRunsCount, stored: [], isCompressed: false)
        if openRunsCount > 0 {
            let compressed = try openRuns.withUnsafeBytes {
                try compressor.compress(UnsafeRawBufferPointer(rebasing: $0[0..<openRunsCount]))
            }
            if compressed.count < openRunsCount {
                block.stored = compressed
                block.isCompressed = true
            } else {
                block.stored = Array(openRuns[0..<openRunsCount])
            }
        }
        appendBlock(block)
        open.removeAll(keepingCapacity: true)
        openRunsCount = 0
    }

    /// Going back past the open block: the newest sealed one becomes the open block again.
    private func unsealNewestBlock() throws {
        let index = (head + blockCount - 1) % blocks.count
        let block = blocks[index]!
        blocks[index] = nil
        blockCount -= 1
        blockBytes -= block.cost
        blockDeltas -= block.deltas.count
        if openRuns.count < block.runsCount { openRuns.resize(to: block.runsCount) }
        if block.isCompressed {
            try openRuns.withUnsafeMutableBytes {
                try compressor.decompress(block.stored, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<block.runsCount]))
            }
        } else if block.runsCount > 0 {
            openRuns.replaceSubrange(0..<block.runsCount, with: block.stored)
        }
        openRunsCount = block.runsCount
        open = block.deltas
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
        target.resize(to: count)
        let shared = min(count, source.count)
        target.withUnsafeMutableBytes { destination in
            source.withUnsafeBytes { from in
                if shared > 0 { destination.baseAddress!.copyMemory(from: from.baseAddress!, byteCount: shared) }
                if count > shared { (destination.baseAddress! + shared).initializeMemory(as: UInt8.self, repeating: 0, count: count - shared) }
            }
        }
    }

    private func appendBlock(_ block: Block) {
        if blockCount == blocks.count {
            // Grow: unroll the circle into a bigger array, oldest first.
            var grown: [Block?] = (0..<blockCount).map { blocks[(head + $0) % blocks.count] }
            grown += [Block?](repeating: nil, count: max(blockCount, 16))
            blocks = grown
            head = 0
        }
        blocks[(head + blockCount) % blocks.count] = block
        blockCount += 1
        blockBytes += block.cost
        blockDeltas += block.deltas.count
    }

    /// Drops the oldest block, or with none sealed the open block's oldest delta.
    private func dropOldest() {
        if blockCount > 0, let oldest = blocks[head] {
            blocks[head] = nil
            head = (head + 1) % blocks.count
            blockCount -= 1
            blockBytes -= oldest.cost
            blockDeltas -= oldest.deltas.count
        } else if !open.isEmpty {
            let first = open.removeFirst()
            openRuns.withUnsafeMutableBytes { runs in
                guard let base = runs.baseAddress, first.runsCount > 0 else { return }
                base.copyMemory(from: base + first.runsCount, byteCount: openRunsCount - first.runsCount)
            }
            openRunsCount -= first.runsCount
        }
    }
}
