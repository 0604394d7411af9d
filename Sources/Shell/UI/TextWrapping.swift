/// Breaks a one-line message into lines for a dialog. Pure functions, any thread.
enum TextWrapping {
    /// Splits `text` into lines of at most `width` characters at spaces (a longer word is cut),
    /// keeping at most `maximumLines` (the last one ends with "…" when text was left out).
    static func lines(_ text: String, width: Int, maximumLines: Int) -> [String] {
        let width = max(width, 1)
        var lines: [String] = []
        var current = ""
        for piece in text.split(separator: " ") {
            var word = String(piece)
            while word.count > width {
                if !current.isEmpty { lines.append(current) }
                current = ""
                lines.append(String(word.prefix(width)))
                word = String(word.dropFirst(width))
            }
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        let limit = max(maximumLines, 1)
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        kept[limit - 1] = String(kept[limit - 1].prefix(width - 1)) + "…"
        return kept
    }
}
