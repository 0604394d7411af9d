/// One piece of a row that `TerminalEncoder` writes in one go: `count` identical cells from
/// `column`, or a gap of unchanged cells that is either skipped by a cursor move or written again.
/// The planner fills in `choice`; costs are exact bytes.
struct PlanStep: BitwiseCopyable {
    enum Kind: UInt8 {
        /// A picture cell of two colours: `▀` (fg top, bg bottom) or `▄` (the other way round).
        case twoColors
        /// A cell of one colour (`bottom`): a space in it as background, or `█` in it as foreground.
        case oneColor
        /// Text: its glyph in its foreground on its background, no other form.
        case fixed
        /// Unchanged cells `column..<column + count`, after the steps `rewriteFrom..<this` that
        /// write them again (none when `rewriteFrom` is this step's own index).
        case gap
    }

    var kind: Kind
    var column: Int
    var count: Int
    /// The cell's character: `▀` (`twoColors`), a space (`oneColor`), the text's (`fixed`).
    var character: UInt32 = 0x20
    /// `twoColors`: the top colour; `fixed`: the foreground.
    var top: UInt32 = 0
    /// `twoColors`: the bottom colour; `oneColor`: the colour; `fixed`: the background.
    var bottom: UInt32 = 0
    /// SGR parameter bytes of `top` and of `bottom` (`38;…` and `48;…` are the same length).
    var topLength: Int32 = 0
    var bottomLength: Int32 = 0
    /// Glyph bytes of the whole step in its first form (`▀`, a space or the text glyph, REP
    /// included); `gap`: the bytes of the cursor move that skips it.
    var firstFormBytes: Int32 = 0
    /// Glyph bytes in the second form (`▄` or `█`); -1 when that form is not allowed.
    var secondFormBytes: Int32 = -1
    var rewriteFrom: Int = 0
    /// Set by `GlyphPlanner.plan`: `GlyphPlanner.first`, `.second`, `.skip`, `.rewrite`, or
    /// `.unwritten` for a rewriting step of a gap that is skipped.
    var choice: UInt8 = 0
}

/// Picks each step's form so the row costs the fewest bytes: a Viterbi search over the colours
/// in effect (foreground, background) after each step, the cost of a step being its SGR (only
/// the halves that change, one sequence for both) plus its glyph bytes. Linear in the steps: at
/// most `width` colour states are kept per step (the cheapest; in practice a row has 2–4).
/// Used by one `TerminalEncoder`, on its thread.
struct GlyphPlanner: ~Copyable {
    static let first: UInt8 = 0
    static let second: UInt8 = 1
    static let skip: UInt8 = 2
    static let rewrite: UInt8 = 3
    static let unwritten: UInt8 = 255
    /// No colour: equal to no colour code (the encoder's "unknown" is the same value).
    static let none: UInt32 = 0xFFFF_FFFF
    /// States kept per step.
    static let width = 8

    /// 16 bytes, both colours in one word: `insert` compares a candidate's colours with every
    /// state of its layer, and one 64-bit compare there (and in `sgrCost`) took 6% off the
    /// planner's time against separate fields and a 20-byte state (`phosphor-bench render --like-play`).
    private struct State: BitwiseCopyable {
        /// The foreground in the low 32 bits, the background in the high 32.
        var colors: UInt64
        var cost: Int32
        /// Slot (layer × width + entry) of the state this one came from, times 4, plus the
        /// choice that led here (`first`…`rewrite`, all below 4).
        var link: Int32

        init(colors: UInt64, cost: Int32, from slot: Int, choice: UInt8) {
            self.colors = colors
            self.cost = cost
            self.link = Int32(truncatingIfNeeded: slot &<< 2) | Int32(choice)
        }
    }

    @inline(__always)
    static func colors(foreground: UInt32, background: UInt32) -> UInt64 {
        UInt64(foreground) | UInt64(background) &<< 32
    }

    private var slots = ScratchBuffer<State>()
    private var counts = ScratchBuffer<Int>()

    /// Fills in every step's `choice` for the cheapest row starting with these colours in
    /// effect; returns its cost in bytes.
    @discardableResult
    mutating func plan(_ steps: UnsafeMutablePointer<PlanStep>, count: Int, foreground: UInt32, background: UInt32) -> Int {
        let width = GlyphPlanner.width
        let states = slots.pointer(capacity: (count + 1) * width)
        let sizes = counts.pointer(capacity: count + 1)
        states[0] = State(colors: GlyphPlanner.colors(foreground: foreground, background: background), cost: 0, from: 0, choice: 0)
        sizes[0] = 1
        // The sizes of the layer before and of the one being built are locals: kept in `sizes`
        // alone, every insert stored and reloaded them (a store there could alias the states).
        var previousSize = 1
        for index in 0..<count {
            let step = steps[index]
            let layer = index &+ 1
            let from = index &* width
            let base = states + layer &* width
            var size = 0
            switch step.kind {
            case .gap where step.rewriteFrom == index:
                // Only skipped: every state goes on as it is, the move's bytes added (no two of
                // them share colours, so none needs `insert`'s look for one).
                for entry in 0..<previousSize {
                    let state = states[from &+ entry]
                    base[entry] = State(colors: state.colors, cost: state.cost &+ step.firstFormBytes, from: from &+ entry,
                                        choice: GlyphPlanner.skip)
                }
                size = previousSize
            case .gap:
                // Skipping from before the rewriting steps (the colours stay), or writing them.
                let skipFrom = step.rewriteFrom &* width
                for entry in 0..<sizes[step.rewriteFrom] {
                    let state = states[skipFrom &+ entry]
                    GlyphPlanner.insert(State(colors: state.colors, cost: state.cost &+ step.firstFormBytes, from: skipFrom &+ entry,
                                              choice: GlyphPlanner.skip), into: base, size: &size)
                }
                for entry in 0..<previousSize {
                    let state = states[from &+ entry]
                    GlyphPlanner.insert(State(colors: state.colors, cost: state.cost, from: from &+ entry, choice: GlyphPlanner.rewrite),
                                        into: base, size: &size)
                }
            case .twoColors, .fixed:
                // Every state leads to the same one or two: keep the cheapest way to each.
                let turns = step.kind == .twoColors && step.secondFormBytes >= 0
                let upperColors = GlyphPlanner.colors(foreground: step.top, background: step.bottom)
                let lowerColors = GlyphPlanner.colors(foreground: step.bottom, background: step.top)
                var upperCost = Int32.max, upperFrom = 0
                var lowerCost = Int32.max, lowerFrom = 0
                for entry in 0..<previousSize {
                    let state = states[from &+ entry]
                    let toUpper = state.cost &+ GlyphPlanner.sgrCost(from: state.colors, to: upperColors,
                                                                      step.topLength, step.bottomLength)
                    if toUpper < upperCost {
                        upperCost = toUpper
                        upperFrom = from &+ entry
                    }
                    let toLower = state.cost &+ GlyphPlanner.sgrCost(from: state.colors, to: lowerColors,
                                                                      step.bottomLength, step.topLength)
                    if toLower < lowerCost {
                        lowerCost = toLower
                        lowerFrom = from &+ entry
                    }
                }
                base[0] = State(colors: upperColors, cost: upperCost &+ step.firstFormBytes, from: upperFrom,
                                choice: GlyphPlanner.first)
                if turns {
                    base[1] = State(colors: lowerColors, cost: lowerCost &+ step.secondFormBytes, from: lowerFrom,
                                    choice: GlyphPlanner.second)
                }
                size = turns ? 2 : 1
            case .oneColor:
                let color = UInt64(step.bottom)
                let setCost = 3 &+ step.bottomLength
                let hasBlock = step.secondFormBytes >= 0
                for entry in 0..<previousSize {
                    let state = states[from &+ entry]
                    // A space: the colour as the background, the foreground unseen and kept.
                    let background = state.colors &>> 32
                    let asSpace = state.cost &+ step.firstFormBytes &+ (background != color ? setCost : 0)
                    GlyphPlanner.insert(State(colors: state.colors & 0xFFFF_FFFF | color &<< 32, cost: asSpace, from: from &+ entry,
                                              choice: GlyphPlanner.first), into: base, size: &size)
                    if hasBlock {
                        // A `█`: the colour as the foreground, the background kept.
                        let foreground = state.colors & 0xFFFF_FFFF
                        let asBlock = state.cost &+ step.secondFormBytes &+ (foreground != color ? setCost : 0)
                        GlyphPlanner.insert(State(colors: state.colors & 0xFFFF_FFFF_0000_0000 | color, cost: asBlock, from: from &+ entry,
                                                  choice: GlyphPlanner.second), into: base, size: &size)
                    }
                }
            }
            sizes[layer] = size
            previousSize = size
        }
        // The cheapest end, then back along the path that led to it.
        let lastBase = count &* width
        var best = lastBase
        for entry in 1..<max(1, sizes[count]) where states[lastBase &+ entry].cost < states[best].cost { best = lastBase &+ entry }
        let total = Int(states[best].cost)
        for index in 0..<count { steps[index].choice = GlyphPlanner.unwritten }
        var slot = best
        while slot >= width {
            let link = Int(states[slot].link)
            steps[Int(UInt(slot) / UInt(width)) &- 1].choice = UInt8(truncatingIfNeeded: link & 3)
            slot = link &>> 2
        }
        return total
    }

    /// Adds a candidate to a layer of `size` states at `base`: replaces a dearer state with the
    /// same colours, or takes a free place, or the place of the dearest when the layer is full
    /// and it is cheaper.
    @inline(__always)
    private static func insert(_ candidate: State, into base: UnsafeMutablePointer<State>, size: inout Int) {
        var entry = 0
        while entry < size {
            if base[entry].colors == candidate.colors {
                if candidate.cost < base[entry].cost { base[entry] = candidate }
                return
            }
            entry &+= 1
        }
        if size < GlyphPlanner.width {
            base[size] = candidate
            size &+= 1
            return
        }
        var dearest = 0
        for entry in 1..<size where base[entry].cost > base[dearest].cost { dearest = entry }
        if candidate.cost < base[dearest].cost { base[dearest] = candidate }
    }

    /// Bytes of the SGR that sets both colours from those in effect: `CSI`, the parameters of
    /// the halves that change (`;` between two), `m`; 0 when neither changes.
    @inline(__always)
    static func sgrCost(from current: UInt64, to wanted: UInt64, _ foregroundLength: Int32,
                                _ backgroundLength: Int32) -> Int32 {
        let difference = current ^ wanted
        let setsForeground = difference & 0xFFFF_FFFF != 0
        let setsBackground = difference &>> 32 != 0
        if setsForeground {
            return setsBackground ? 4 &+ foregroundLength &+ backgroundLength : 3 &+ foregroundLength
        }
        return setsBackground ? 3 &+ backgroundLength : 0
    }
}
