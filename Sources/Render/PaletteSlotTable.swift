/// Which 24-bit colour each redefinable palette entry holds, for `TerminalEncoder`.
///
/// An entry is only handed out while no cell on screen shows it: it starts free, is taken by a
/// colour (the encoder then writes its `OSC 4` definition), and comes back only through
/// `release(keeping:)`, which the encoder calls between frames with the entries the screen still
/// shows. Entries never move from one colour to another while visible, so what the terminal
/// shows always matches what the encoder meant. One encoder's, on its thread.
struct PaletteSlotTable {
    let slots: PaletteSlots
    /// The colour at each position of `slots.indices` (`none`: free).
    private var colors: [UInt32]
    /// Positions that are free, taken from the end.
    private var free: [Int]
    /// Open-addressing map colour → position + 1 (0: empty), rebuilt when entries come back.
    private var keys: [UInt32]
    private var positions: [UInt8]
    /// Which palette indices are in `slots` (the encoder must not use them by their xterm colour).
    private(set) var isSlot = [Bool](repeating: false, count: 256)
    /// Some entry was redefined since the terminal's palette was last as it reported it.
    private(set) var hasDefinitions = false

    static let none: UInt32 = 0xFFFF_FFFF
    private static let capacity = 512

    init(slots: PaletteSlots) {
        self.slots = slots
        colors = [UInt32](repeating: PaletteSlotTable.none, count: slots.indices.count)
        free = Array((0..<slots.indices.count).reversed())
        keys = [UInt32](repeating: PaletteSlotTable.none, count: PaletteSlotTable.capacity)
        positions = [UInt8](repeating: 0, count: PaletteSlotTable.capacity)
        for index in slots.indices { isSlot[Int(index)] = true }
    }

    var freeCount: Int { free.count }
    var count: Int { colors.count }

    @inline(__always)
    private static func hash(_ color: UInt32) -> Int {
        Int(truncatingIfNeeded: (color &* 0x9E37_79B1) >> 23)  // 9 bits: capacity 512
    }

    /// The palette index holding `color`, or -1.
    @inline(__always)
    func index(of color: UInt32) -> Int {
        let position = position(of: color)
        return position < 0 ? -1 : Int(slots.indices[position])
    }

    /// The position (in `slots.indices`) holding `color`, or -1.
    @inline(__always)
    func position(of color: UInt32) -> Int {
        var probe = PaletteSlotTable.hash(color)
        return keys.withUnsafeBufferPointer { keys in
            while keys[probe] != PaletteSlotTable.none {
                if keys[probe] == color { return Int(positions[probe]) &- 1 }
                probe = (probe &+ 1) & (PaletteSlotTable.capacity &- 1)
            }
            return -1
        }
    }

    /// Gives `color` a free entry and returns its palette index (the caller defines it on the
    /// terminal before using it), or nil when none is free.
    mutating func take(_ color: UInt32) -> Int? {
        guard let position = free.popLast() else { return nil }
        colors[position] = color
        insert(color, position: position)
        hasDefinitions = true
        return Int(slots.indices[position])
    }

    private mutating func insert(_ color: UInt32, position: Int) {
        var probe = PaletteSlotTable.hash(color)
        while keys[probe] != PaletteSlotTable.none { probe = (probe + 1) & (PaletteSlotTable.capacity - 1) }
        keys[probe] = color
        positions[probe] = UInt8(position + 1)
    }

    /// Frees every entry whose position `visible` does not mark; returns how many came back.
    @discardableResult
    mutating func release(keeping visible: [Bool]) -> Int {
        var released = 0
        for position in colors.indices where colors[position] != PaletteSlotTable.none && !visible[position] {
            colors[position] = PaletteSlotTable.none
            free.append(position)
            released += 1
        }
        guard released > 0 else { return 0 }
        keys = [UInt32](repeating: PaletteSlotTable.none, count: PaletteSlotTable.capacity)
        for position in colors.indices where colors[position] != PaletteSlotTable.none { insert(colors[position], position: position) }
        return released
    }

    /// The terminal's palette is back as it reported it (restored by us or by someone else):
    /// every entry free, nothing defined.
    mutating func reset() {
        self = PaletteSlotTable(slots: slots)
    }
}
