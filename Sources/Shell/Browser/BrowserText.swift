import Foundation
import Library
import PhosphorKit

/// The words the browser shows for dates, play time, sorts and unplayable games. Pure functions,
/// any thread.
enum BrowserText {
    /// "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date ("2026-11-02").
    static func lastPlayed(_ date: Date?, now: Date = Date(), calendar: Calendar = .current) -> String {
        guard let date else { return "never" }
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(Int(seconds / 60)) min ago" }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date),
                                           to: calendar.startOfDay(for: now)).day ?? 0
        if days <= 0 { return "\(Int(seconds / 3600)) h ago" }
        if days == 1 { return "yesterday" }
        if days < 7 { return "\(days) days ago" }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// "<1m", "12m", "3h 05m".
    static func playTime(seconds: Int) -> String {
        if seconds < 60 { return "<1m" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes)m" }
        return "\(minutes / 60)h " + String(format: "%02dm", minutes % 60)
    }

    static func sortName(_ sort: GameSort) -> String {
        switch sort {
        case .title: "title"
        case .recent: "recent"
        case .mostPlayed: "most played"
        }
    }

    /// Why a game cannot start, or nil when a core for its system is installed.
    static func unplayableReason(_ system: GameSystem, hasCore: Bool) -> String? {
        hasCore ? nil : "no core for \(system.displayName)"
    }

    /// A game's title as drawn: sanitized (the library already stores it so; drawing never
    /// trusts that), with a star for favourites.
    static func title(of game: Game) -> String {
        (game.favourite ? "★ " : "") + DisplayText.sanitized(game.title)
    }

    /// Pasted or typed text for a one-line field: control characters and line breaks removed.
    static func fieldText(_ text: String) -> String {
        DisplayText.strippingUnsafe(text)
    }

    /// The scan bar's words while the folders are still walked: files found, and the games of the
    /// files already read (the reading starts before the walk ends).
    static func walkingLabel(_ progress: ScanProgress) -> String {
        var label = " Looking for games: \(progress.filesSeen) files "
        if progress.gamesFound > 0 { label += "· \(progress.gamesFound) \(progress.gamesFound == 1 ? "game" : "games") " }
        if progress.skipped > 0 { label += "· \(progress.skipped) skipped " }
        return label
    }

    /// A bar of `width` cells filled to `done` of `total`.
    static func progressBar(done: Int, total: Int, width: Int) -> String {
        guard width > 0 else { return "" }
        let filled = total > 0 ? min(width, done * width / total) : 0
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
