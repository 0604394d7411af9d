import Foundation
import PhosphorKit

/// A problem with a user's JSON file (settings or skin), as one line naming the file, the line
/// when known, and what is wrong: `/home/u/.config/phosphor/config.json, line 7: audio.volume must
/// be a whole number from 0 to 100 (found 150)`.
public struct UserFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: URL
    public var line: Int?
    public var problem: String

    public init(file: URL, line: Int? = nil, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String {
        if let line { return "\(file.path), line \(line): \(problem)" }
        return "\(file.path): \(problem)"
    }
}

/// Loads and saves `config.json`.
///
/// A file that cannot be used (malformed JSON, a wrong type, an out-of-range value, larger than
/// 1 MiB, unreadable) gives a one-line `loadError`, the defaults are used, and the store remembers
/// it: `save()` then refuses, so the user's file is never overwritten because of a mistake in it.
/// Unknown keys only give warnings. Value type; the UI thread owns it.
public struct ConfigStore: Sendable {
    /// Files larger than this are refused unread.
    public static let maximumFileSize = 1 << 20

    public let file: URL
    /// The settings in effect (defaults when the file was missing or broken).
    public var config: PhosphorConfig
    /// Why the file could not be used, when it could not. While set, `save()` refuses.
    public private(set) var loadError: UserFileError?
    /// Non-fatal problems (unknown keys, a newer format), one line each.
    public private(set) var warnings: [UserFileError]

    public init(file: URL, config: PhosphorConfig = PhosphorConfig(), loadError: UserFileError? = nil,
                warnings: [UserFileError] = []) {
        self.file = file
        self.config = config
        self.loadError = loadError
        self.warnings = warnings
    }

    /// Reads `file`. A missing file is not an error (first run): defaults, and saving allowed.
    /// Errors and warnings are also written to the log. Any thread.
    public static func load(from file: URL) -> ConfigStore {
        var store = ConfigStore(file: file)
        do {
            let (config, warnings) = try decode(contentsOf: file)
            store.config = config
            store.warnings = warnings
        } catch {
            switch error {
            case .missing:
                return store
            case .unusable(let problem):
                store.loadError = problem
                Log.error("\(problem); using default settings and leaving the file untouched")
            }
        }
        for warning in store.warnings { Log.warning(warning.description) }
        return store
    }

    /// Whether `save()` will write (false after a load error).
    public var canSave: Bool { loadError == nil }

    /// Writes the settings atomically (pretty-printed, sorted keys). Throws without touching the
    /// file when it failed to load, so a broken file is never replaced by defaults.
    public func save() throws {
        if let loadError {
            throw UserFileError(file: file, line: loadError.line,
                                problem: "not saved: the file could not be loaded (\(loadError.problem)); fix or remove it and restart")
        }
        try AtomicFile.write(Self.encoded(config), to: file)
    }

    /// The bytes `save()` writes.
    public static func encoded(_ config: PhosphorConfig) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(config)
        data.append(0x0A)
        return data
    }

    enum ConfigReadFailure: Error {
        case missing
        case unusable(UserFileError)
    }

    /// Parses the file at `file`; throws `ConfigReadFailure`.
    static func decode(contentsOf file: URL) throws(ConfigReadFailure) -> (PhosphorConfig, [UserFileError]) {
        let bytes: [UInt8]
        switch readUserFile(file, maximumSize: maximumFileSize) {
        case .missing: throw .missing
        case .failed(let error): throw .unusable(error)
        case .read(let contents): bytes = contents
        }
        do {
            let (config, warnings) = try decode(bytes, file: file)
            return (config, warnings)
        } catch {
            throw .unusable(error)
        }
    }

    /// Parses `config.json` contents. Throws the first error as a `UserFileError`.
    static func decode(_ bytes: [UInt8], file: URL) throws(UserFileError) -> (PhosphorConfig, [UserFileError]) {
        let root: PositionedJSON
        do {
            root = try PositionedJSON.parse(bytes)
        } catch {
            throw UserFileError(file: file, line: error.line,
                                problem: "not valid JSON: \(error.message) (column \(error.column))")
        }
        do {
            let (config, problems) = try PhosphorConfig.read(from: root)
            let sorted = problems.sorted { $0.line < $1.line }
            return (config, sorted.map { UserFileError(file: file, line: $0.line, problem: $0.message) })
        } catch {
            throw UserFileError(file: file, line: error.line, problem: error.message)
        }
    }
}

/// The outcome of reading a small user file with a size limit.
enum UserFileContents {
    case missing
    case read([UInt8])
    case failed(UserFileError)
}

/// Reads a user's settings or skin file, refusing anything larger than `maximumSize` before
/// reading it (a settings file is never that big; a huge one is a mistake, not data to load).
func readUserFile(_ file: URL, maximumSize: Int) -> UserFileContents {
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    guard manager.fileExists(atPath: file.path, isDirectory: &isFolder) else { return .missing }
    if isFolder.boolValue { return .failed(UserFileError(file: file, problem: "is a folder, not a file")) }
    // A FIFO or device would block the read or fail with a misleading reason: refuse it unopened
    // (stat follows a symbolic link, so a link to a regular file is fine).
    var status = stat()
    if stat(file.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
        return .failed(UserFileError(file: file, problem: "is not a regular file"))
    }
    do {
        let attributes = try manager.attributesOfItem(atPath: file.path)
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size > maximumSize {
            return .failed(UserFileError(
                file: file,
                problem: "is \(formatByteCount(size)); the limit is \(formatByteCount(maximumSize)), so it was not read"))
        }
        let data = try Data(contentsOf: file)
        if data.count > maximumSize {
            return .failed(UserFileError(file: file, problem: "grew past \(formatByteCount(maximumSize)) while being read"))
        }
        return .read([UInt8](data))
    } catch {
        return .failed(UserFileError(file: file, problem: "cannot be read (\(error.localizedDescription))"))
    }
}

/// "812 bytes", "3.4 KiB", "2.0 MiB".
func formatByteCount(_ count: Int) -> String {
    if count < 1024 { return "\(count) bytes" }
    if count < 1 << 20 { return String(format: "%.1f KiB", Double(count) / 1024) }
    return String(format: "%.1f MiB", Double(count) / Double(1 << 20))
}
