import Foundation

extension Data {
    /// Writes to `url`, making its folder first (tests lay out RetroArch's folders this way).
    func write(to url: URL, creatingFolder: Bool) throws {
        if creatingFolder {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        try write(to: url)
    }
}
