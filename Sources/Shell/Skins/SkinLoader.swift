import Foundation
import PhosphorKit

/// Finds and reads skins: the user's `PhosphorPaths.skins/<system>.json` first, then the built-in
/// `Skins/<system>.json`, then the copy compiled into the program. A broken file gives a one-line
/// error (also logged) and the next source is used. Value type, any thread.
public struct SkinLoader: Sendable {
    /// Skin files larger than this are refused unread.
    public static let maximumFileSize = 256 * 1024

    /// Where a loaded skin came from.
    public enum Source: Sendable, Equatable {
        case user(URL)
        case builtInFile(URL)
        case compiledIn
    }

    public struct Result: Sendable {
        public var skin: Skin
        public var source: Source
        /// One line per file that was skipped because it is broken.
        public var errors: [UserFileError]
    }

    /// The user's skin folder (`PhosphorPaths.skins`).
    public let userFolder: URL
    /// The built-in `Skins/` folder, when one was found.
    public let builtInFolder: URL?

    public init(userFolder: URL, builtInFolder: URL?) {
        self.userFolder = userFolder
        self.builtInFolder = builtInFolder
    }

    /// The usual loader: the user's folder from `paths`, the built-in folder found by
    /// `locateBuiltInFolder()`.
    public init(paths: PhosphorPaths) {
        self.init(userFolder: paths.skins, builtInFolder: SkinLoader.locateBuiltInFolder())
    }

    /// The skin for `system`. Never fails: the compiled-in skin is the last resort.
    public func skin(for system: GameSystem) -> Result {
        var errors: [UserFileError] = []
        var candidates = [(userFolder.appendingPathComponent("\(system.rawValue).json"), true)]
        if let builtInFolder {
            candidates.append((builtInFolder.appendingPathComponent("\(system.rawValue).json"), false))
        }
        for (file, isUser) in candidates {
            switch Self.load(file, expectedSystem: system) {
            case .loaded(let skin):
                return Result(skin: skin, source: isUser ? .user(file) : .builtInFile(file), errors: errors)
            case .broken(let error):
                Log.error("\(error); using the built-in \(system.displayName) skin")
                errors.append(error)
            case .missing:
                continue
            }
        }
        return Result(skin: BuiltInSkins.skin(for: system), source: .compiledIn, errors: errors)
    }

    enum FileOutcome {
        case missing
        case loaded(Skin)
        case broken(UserFileError)
    }

    /// Reads one skin file.
    static func load(_ file: URL, expectedSystem: GameSystem?) -> FileOutcome {
        switch readUserFile(file, maximumSize: maximumFileSize) {
        case .missing: return .missing
        case .failed(let error): return .broken(error)
        case .read(let bytes):
            do {
                return .loaded(try decode(bytes, file: file, expectedSystem: expectedSystem))
            } catch {
                return .broken(error)
            }
        }
    }

    /// Parses skin file contents; `file` only names the file in errors.
    public static func decode(_ bytes: [UInt8], file: URL, expectedSystem: GameSystem?) throws(UserFileError) -> Skin {
        let root: PositionedJSON
        do {
            root = try PositionedJSON.parse(bytes)
        } catch {
            throw UserFileError(file: file, line: error.line, problem: "not valid JSON: \(error.message) (column \(error.column))")
        }
        do {
            return try Skin.read(from: root, expectedSystem: expectedSystem)
        } catch {
            throw UserFileError(file: file, line: error.line, problem: error.message)
        }
    }

    /// The built-in `Skins/` folder: `$PHOSPHOR_SKINS` when set, else the first `Skins/` folder
    /// (holding `nes.json`) found walking up from the executable's folder and then from the
    /// current directory (a checkout runs `.build/release/phosphor`, three levels below `Skins/`),
    /// else an installed `share/phosphor/skins` beside the executable's `bin/`.
    public static func locateBuiltInFolder(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) -> URL? {
        BundledFolder(environmentVariable: "PHOSPHOR_SKINS", candidates: ["Skins", "share/phosphor/skins"], marker: "nes.json")
            .locate(environment: environment, executable: executable, currentDirectory: currentDirectory)
    }
}
