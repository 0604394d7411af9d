import Foundation
import PhosphorKit

/// Writes screenshots as PNG files named after the game and the time:
/// `Super Mario Land 2026-11-30 19-05-12.png`, then `… 19-05-12-2.png`, `-3` and so on when a
/// name is taken. Never overwrites a file. Call from the UI thread (file I/O).
public enum ScreenshotWriter {
    /// Writes `frame` into `folder` (normally `PhosphorPaths.screenshots`) and returns the file.
    @discardableResult
    public static func write(_ frame: VideoFrame, game: String, folder: URL, date: Date = Date(),
                             timeZone: TimeZone = .current) throws -> URL {
        let png = try PNGImage(frame).encoded()
        let file = availableFile(in: folder, game: game, date: date, timeZone: timeZone)
        try AtomicFile.write(png, to: file)
        return file
    }

    /// The first free name for a screenshot of `game` taken at `date`.
    public static func availableFile(in folder: URL, game: String, date: Date, timeZone: TimeZone = .current) -> URL {
        let base = "\(FileNameSanitizer.sanitized(game)) \(timestamp(date, timeZone: timeZone))"
        var candidate = folder.appendingPathComponent("\(base).png")
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(base)-\(counter).png")
            counter += 1
        }
        return candidate
    }

    /// `2026-11-30 19-05-12` (no colons: they are not allowed on FAT and confuse some tools).
    static func timestamp(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(String(format: "%04d", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour))-\(two(parts.minute))-\(two(parts.second))"
    }
}
