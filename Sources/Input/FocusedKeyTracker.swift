/// Turns a side channel's raw key events into transitions the play screen may use: only while the
/// terminal window has the focus, each key down once and up once, and everything up when the
/// focus leaves (no release arrives for a key let go in another window). A pure value; the
/// XInput2 reader thread owns one.
struct FocusedKeyTracker {
    private(set) var isFocused = false
    private(set) var down: Set<Key> = []

    /// The focus as the reader saw it now; losing it lets go of every key held.
    mutating func focus(_ focused: Bool) -> [KeyTransition] {
        guard focused != isFocused else { return [] }
        isFocused = focused
        guard !focused else { return [] }
        down.removeAll()
        return [.allUp]
    }

    /// One raw press or release of `key` (nil: a key no map can bind). Raw events repeat a held
    /// key's press on autorepeat: only the first press counts.
    mutating func key(_ key: Key?, pressed: Bool) -> [KeyTransition] {
        guard isFocused, let key else { return [] }
        if pressed {
            return down.insert(key).inserted ? [.down(key)] : []
        }
        return down.remove(key) != nil ? [.up(key)] : []
    }
}
