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
    /// `fixed`: the text's character.
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

    private struct State: BitwiseCopyable {
        var foreground: UInt32
        var background: UInt32
        var cost: Int32
        /// Slot (layer × width + entry) of the state this one came from.
        var previous: Int32
        var choice: UInt8
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
        states[0] = State(foreground: foreground, background: background, cost: 0, previous: -1, choice: 0)
        sizes[0] = 1
        for index in 0..<count {
            let step = steps[index]
            let layer = index + 1
            sizes[layer] = 0
            let from = index &* width
            if step.kind == .gap {
                // Skipping: the colours stay; from before the rewriting steps.
                let skipFrom = step.rewriteFrom &* width
                for entry in 0..<sizes[step.rewriteFrom] {
                    let state = states[skipFrom &+ entry]
                    insert(State(foreground: state.foreground, background: state.background, cost: state.cost &+ step.firstFormBytes,
                                 previous: Int32(skipFrom &+ entry), choice: GlyphPlanner.skip), layer: layer, states: states, sizes: sizes)
                }
                if step.rewriteFrom != index {
                    for entry in 0..<sizes[index] {
                        var state = states[from &+ entry]
                        state.previous = Int32(from &+ entry)
                        state.choice = GlyphPlanner.rewrite
                        insert(state, layer: layer, states: states, sizes: sizes)
                    }
                }
                continue
            }
            switch step.kind {
            case .twoColors, .fixed:
                // Every state leads to the same one or two: keep the cheapest way to each.
                let turns = step.kind == .twoColors && step.secondFormBytes >= 0
                var upper = State(foreground: step.top, background: step.bottom, cost: .max, previous: 0, choice: GlyphPlanner.first)
                var lower = State(foreground: step.bottom, background: step.top, cost: .max, previous: 0, choice: GlyphPlanner.second)
                for entry in 0..<sizes[index] {
                    let state = states[from &+ entry]
                    let upperCost = state.cost &+ GlyphPlanner.sgrCost(state, foreground: step.top, step.topLength,
                                                                        background: step.bottom, step.bottomLength)
                    if upperCost < upper.cost {
                        upper.cost = upperCost
                        upper.previous = Int32(from &+ entry)
                    }
                    if turns {
                        let lowerCost = state.cost &+ GlyphPlanner.sgrCost(state, foreground: step.bottom, step.bottomLength,
                                                                            background: step.top, step.topLength)
                        if lowerCost < lower.cost {
                            lower.cost = lowerCost
                            lower.previous = Int32(from &+ entry)
                        }
                    }
                }
                upper.cost &+= step.firstFormBytes
                states[layer &* width] = upper
                if turns {
                    lower.cost &+= step.secondFormBytes
                    states[layer &* width &+ 1] = lower
                }
                sizes[layer] = turns ? 2 : 1
            case .oneColor:
                for entry in 0..<sizes[index] {
                    let state = states[from &+ entry]
                    let previous = Int32(from &+ entry)
                    oneColor(step, form: 0, from: state, previous: previous, layer: layer, states: states, sizes: sizes)
                    if step.secondFormBytes >= 0 {
                        oneColor(step, form: 2, from: state, previous: previous, layer: layer, states: states, sizes: sizes)
                    }
                }
            case .gap:
                break
            }
        }
        // The cheapest end, then back along the path that led to it.
        let lastBase = count &* width
        var best = lastBase
        for entry in 1..<max(1, sizes[count]) where states[lastBase &+ entry].cost < states[best].cost { best = lastBase &+ entry }
        let total = Int(states[best].cost)
        for index in 0..<count { steps[index].choice = GlyphPlanner.unwritten }
        var slot = best
        while slot >= width {
            let state = states[slot]
            steps[slot / width &- 1].choice = state.choice
            slot = Int(state.previous)
        }
        return total
    }

    /// The state a one-colour cell leads to in one form: a space (`form` 0: the colour as the
    /// background, the foreground unseen and kept) or a `█` (`form` 2: the colour as the
    /// foreground, the background kept). (Setting the unseen half ahead for a later cell, in the
    /// same SGR, saved 0.35% of the bytes of a scrolling game for a tenth of the encoder's
    /// instructions: not done.)
    @inline(__always)
    private func oneColor(_ step: PlanStep, form: UInt8, from state: State, previous: Int32, layer: Int,
                          states: UnsafeMutablePointer<State>, sizes: UnsafeMutablePointer<Int>) {
        let isSpace = form == 0
        let shown = isSpace ? state.background : state.foreground
        let setsColor = shown != step.bottom
        let cost = state.cost &+ (isSpace ? step.firstFormBytes : step.secondFormBytes) &+ (setsColor ? 3 &+ step.bottomLength : 0)
        insert(State(foreground: isSpace ? state.foreground : step.bottom, background: isSpace ? step.bottom : state.background,
                     cost: cost, previous: previous, choice: isSpace ? GlyphPlanner.first : GlyphPlanner.second),
               layer: layer, states: states, sizes: sizes)
    }

    /// Adds a candidate to a layer: replaces a dearer state with the same colours, or takes a free
    /// place, or the place of the dearest when the layer is full and it is cheaper.
    @inline(__always)
    private func insert(_ candidate: State, layer: Int, states: UnsafeMutablePointer<State>, sizes: UnsafeMutablePointer<Int>) {
        let base = states + layer &* GlyphPlanner.width
        let size = sizes[layer]
        var entry = 0
        while entry < size {
            if base[entry].foreground == candidate.foreground && base[entry].background == candidate.background {
                if candidate.cost < base[entry].cost { base[entry] = candidate }
                return
            }
            entry &+= 1
        }
        if size < GlyphPlanner.width {
            base[size] = candidate
            sizes[layer] = size &+ 1
            return
        }
        var dearest = 0
        for entry in 1..<size where base[entry].cost > base[dearest].cost { dearest = entry }
        if candidate.cost < base[dearest].cost { base[dearest] = candidate }
    }

    /// Bytes of the SGR that sets both colours from those in effect: `CSI`, the parameters of
    /// the halves that change (`;` between two), `m`; 0 when neither changes.
    @inline(__always)
    private static func sgrCost(_ state: State, foreground: UInt32, _ foregroundLength: Int32,
                                background: UInt32, _ backgroundLength: Int32) -> Int32 {
        let setsForeground = foreground != state.foreground
        let setsBackground = background != state.background
        if setsForeground {
            return setsBackground ? 4 &+ foregroundLength &+ backgroundLength : 3 &+ foregroundLength
        }
        return setsBackground ? 3 &+ backgroundLength : 0
    }
}
