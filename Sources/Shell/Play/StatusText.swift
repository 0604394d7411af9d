/// The play screen's status bar text as parts ("GB · 60 fps · slot 1 · …"), each with how much it
/// matters, so a narrow bar or a notice beside it drops the least useful parts first: the key
/// source and the volume before the slot, those before what the link says, and never the system,
/// the frame rate or the speed. (Cutting to the first two parts once hid "link 9 KB/s" whenever
/// "sound off" stood beside a long status.) A value: built on the UI thread, compared to skip refitting.
struct StatusText: Equatable, Sendable {
    enum Importance: Int, Comparable, Sendable {
        /// Dropped first: the key source, the volume.
        case low
        /// What is held, rewind's reach, the slot, cheats.
        case medium
        /// What the link to the terminal allows (its rate, frames shown, fewer colours).
        case high
        /// Always shown: the system, the frame rate, the speed or rewind, an armed hold.
        case essential

        static func < (a: Importance, b: Importance) -> Bool { a.rawValue < b.rawValue }
    }

    struct Part: Equatable, Sendable {
        var text: String
        var importance: Importance
    }

    private(set) var parts: [Part] = []

    static let separator = " · "

    mutating func append(_ text: String, _ importance: Importance) {
        parts.append(Part(text: text, importance: importance))
    }

    /// Every part, in order.
    var text: String { parts.map(\.text).joined(separator: Self.separator) }

    /// The parts that fit in `width` characters, in their order: the least important go first,
    /// the later of equally important ones before the earlier. The essential parts stay even when
    /// they alone are wider (the caller cuts the line).
    func fitted(width: Int) -> String {
        var kept = parts
        while length(of: kept) > width {
            guard let victim = kept.indices.filter({ kept[$0].importance != .essential })
                .min(by: { kept[$0].importance < kept[$1].importance
                           || (kept[$0].importance == kept[$1].importance && $0 > $1) }) else { break }
            kept.remove(at: victim)
        }
        return kept.map(\.text).joined(separator: Self.separator)
    }

    /// Characters of `parts` joined (what the bar shows: one column each).
    private func length(of parts: [Part]) -> Int {
        guard !parts.isEmpty else { return 0 }
        return parts.reduce(0) { $0 + $1.text.count } + Self.separator.count * (parts.count - 1)
    }
}
