import Foundation
import PhosphorKit

/// The first look at a ROM the user names: it exists, is a regular file of a sane size, and is for
/// a system we can tell. Every failure is one line naming the file.
enum RomCheck {
    static let maximumSize = 512 << 20

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Returns the system the ROM is for (extension and header, see `RomInspector`), or nil when
    /// the bytes don't say and `--core` must decide.
    static func inspect(_ url: URL) throws -> GameSystem? {
        let name = url.lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            // Swift hands over arguments as repaired UTF-8: a name with other bytes can't be found.
            let hint = name.contains("\u{FFFD}") ? " (a name that is not valid UTF-8 cannot be opened: rename the file)" : ""
            throw Failure(description: "\(name): no such file\(hint)")
        }
        guard !isDirectory.boolValue else { throw Failure(description: "\(name): is a folder, not a ROM") }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size > 0 else { throw Failure(description: "\(name): empty file (0 bytes), not a ROM") }
        guard size <= maximumSize else {
            throw Failure(description: "\(name): \(size >> 20) MiB is larger than any cartridge Phosphor plays")
        }
        do {
            return try RomInspector.inspect(file: url).system
        } catch let error as RomInspectionError {
            // An unknown system is not fatal when the user names the core (--core).
            if case .unknownSystem = error { return nil }
            throw Failure(description: "\(error)")
        }
    }
}
