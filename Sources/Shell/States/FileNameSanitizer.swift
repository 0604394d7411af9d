import PhosphorKit

/// Makes a game title safe as a file name on Linux (and on the FAT/exFAT cards people copy saves
/// to): no `/`, NUL, control characters, bidi overrides (a name that reads backwards in `ls`) or
/// `\:*?"<>|`, no leading dot, at most 180 UTF-8 bytes.
/// An ordinary name comes back unchanged. Any thread.
public enum FileNameSanitizer {
    public static let maximumBytes = 180

    public static func sanitized(_ name: String) -> String {
        var result = ""
        for character in name {
            let isUnsafe = character.unicodeScalars.contains { scalar in
                DisplayText.isUnsafe(scalar) || "/\\:*?\"<>|".unicodeScalars.contains(scalar)
            }
            result.append(isUnsafe ? "_" : character)
        }
        result = result.trimmingWhitespace()
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        if result.isEmpty { result = "game" }
        while result.utf8.count > maximumBytes { result.removeLast() }
        return result
    }
}
