internal import CLibretro
import Foundation
import PhosphorKit

/// One dlopen'ed core: its function table, and the system info it reports.
/// Not thread-safe: after `init`, only the core thread calls into it.
final class LibretroCore {
    var table = clibretro_core()
    let path: URL
    let libraryName: String
    let libraryVersion: String
    let validExtensions: String
    let needsFullPath: Bool
    let blockExtract: Bool

    init(path: URL) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 512)
        guard clibretro_open(path.path, &table, &message, message.count) == 0 else {
            throw EmulationError.coreLoadFailed(core: path.lastPathComponent, reason: string(fromCBuffer: message))
        }
        var info = retro_system_info()
        table.get_system_info(&info)
        libraryName = info.library_name.map { String(cString: $0) } ?? path.lastPathComponent
        libraryVersion = info.library_version.map { String(cString: $0) } ?? "?"
        validExtensions = info.valid_extensions.map { String(cString: $0) } ?? ""
        needsFullPath = info.need_fullpath
        blockExtract = info.block_extract
    }

    deinit { clibretro_close(&table) }

    /// Reads name and version without keeping the core loaded (for `phosphor cores`).
    static func systemInfo(of path: URL) throws -> (name: String, version: String) {
        let core = try LibretroCore(path: path)
        return (core.libraryName, core.libraryVersion)
    }
}

/// Reads a core's own name and version (retro_get_system_info) without starting it.
public enum LibretroCoreInfoReader {
    public static func version(of path: URL) throws -> String {
        try LibretroCore.systemInfo(of: path).version
    }
}
