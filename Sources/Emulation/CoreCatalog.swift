import Foundation
import PhosphorKit

/// Every libretro core Phosphor can find, with the systems each one plays.
///
/// Cores are looked for in `PHOSPHOR_CORE_PATH` (colon-separated; searched first), the user's
/// `~/.config/retroarch/cores`, and the multiarch `libretro` directory Debian installs into.
/// Info files come from beside the core or from `libretro-core-info` (`/usr/share/libretro/info`).
/// A core without an info file is still listed, with systems guessed from its name.
public struct CoreCatalog: Sendable {
    public private(set) var cores: [CoreInfo]

    public init(cores: [CoreInfo]) { self.cores = cores }

    /// Folders searched for cores, in priority order.
    public static func coreFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var folders: [URL] = []
        if let extra = environment["PHOSPHOR_CORE_PATH"] {
            folders += extra.split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true) }
        }
        if let home = environment["HOME"] {
            folders.append(URL(fileURLWithPath: home).appendingPathComponent(".config/retroarch/cores"))
        }
        for triplet in ["x86_64-linux-gnu", "aarch64-linux-gnu", "arm-linux-gnueabihf", "i386-linux-gnu"] {
            folders.append(URL(fileURLWithPath: "/usr/lib/\(triplet)/libretro"))
        }
        folders.append(URL(fileURLWithPath: "/usr/lib/libretro"))
        return folders
    }

    static let infoFolders = [URL(fileURLWithPath: "/usr/share/libretro/info")]

    /// Scans the folders. Any thread; touches only the file system.
    public static func discover(environment: [String: String] = ProcessInfo.processInfo.environment) -> CoreCatalog {
        var seenNames = Set<String>()
        var cores: [CoreInfo] = []
        let fileManager = FileManager.default
        for folder in coreFolders(environment: environment) {
            guard let files = try? fileManager.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.sorted() where file.hasSuffix("_libretro.so") {
                let name = CoreInfo.name(forLibrary: file)
                guard !seenNames.contains(name) else { continue }
                seenNames.insert(name)
                cores.append(describe(library: folder.appendingPathComponent(file)))
            }
        }
        return CoreCatalog(cores: cores)
    }

    /// The description of a core at `library`, from its info file where one exists.
    public static func describe(library: URL) -> CoreInfo { describe(library: library, infoFolders: infoFolders) }

    /// `describe(library:)` looking for info files beside the core and in `infoFolders`.
    static func describe(library: URL, infoFolders: [URL]) -> CoreInfo {
        let infoName = library.deletingPathExtension().lastPathComponent + ".info"
        let candidates = [library.deletingLastPathComponent()] + infoFolders
        for folder in candidates {
            if let info = CoreInfoFile.load(folder.appendingPathComponent(infoName)) {
                return CoreInfo(path: library, info: info)
            }
        }
        // No info file: the profile's name for a core Phosphor knows, else the file's.
        let name = CoreInfo.name(forLibrary: library.lastPathComponent)
        let displayName = CoreProfile.named(name).displayName ?? name
        return CoreInfo(path: library, name: name, displayName: displayName, systems: [], extensions: [],
                        needsFullPath: false, supportsNoGame: false, displayVersion: nil, softwareRendered: true)
    }

    /// Cores that can play `system`, the preferred ones first (`CoreProfile.ranks`: Debian's
    /// well-known cores by how well they run in a terminal; a user's preference is applied by
    /// `core(for:preferring:)`).
    public func cores(for system: GameSystem) -> [CoreInfo] {
        // Not filtered on `softwareRendered`: info files over-claim (Debian's desmume renders in
        // software although its info says OpenGL), and OpenGL cores run (offscreen,
        // `HardwareRenderer`). A core that needs what Phosphor cannot give (Vulkan) asks for it
        // with SET_HW_RENDER when it loads, and is refused then with a clear message.
        let matching = cores.filter { $0.systems.contains(system) }
        return matching.sorted { $0.profile.rank(for: system) < $1.profile.rank(for: system) }
    }

    /// The core to play `system` with: the preferred core (a path or a core name) when it is
    /// installed and plays the system, else the best-ranked one.
    public func core(for system: GameSystem, preferring preference: String? = nil) -> CoreInfo? {
        let candidates = cores(for: system)
        if let preference, !preference.isEmpty {
            if let match = candidates.first(where: { $0.name == preference || $0.path.path == preference }) {
                return match
            }
        }
        return candidates.first
    }
}
