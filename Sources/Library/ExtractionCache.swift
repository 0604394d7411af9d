import Foundation
import PhosphorKit

/// The folder archived games are extracted to for playing (`data/extracted/`), kept to a total
/// size. Each extraction sits in its own subfolder (`ArchiveReader.extract`); the subfolder's
/// modification time records its last use, and after every extraction the least recently used
/// subfolders are deleted until the total fits `totalCap` — never the game being started.
/// One thread at a time per folder (the UI thread that starts games).
public struct ExtractionCache: Sendable {
    /// 2 GiB: four of the largest DS games, or hundreds of cartridge games, while a data folder
    /// on a small disk stays bounded.
    public static let defaultTotalCap: Int64 = 2 << 30

    public let folder: URL
    public let totalCap: Int64
    /// When a use happens; tests pass a clock so the order of uses is not left to timestamp resolution.
    private let now: @Sendable () -> Date

    public init(folder: URL, totalCap: Int64 = defaultTotalCap, now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder
        self.totalCap = totalCap
        self.now = now
    }

    /// The extracted file of `entry`, extracted now unless an up-to-date copy exists. Refuses an
    /// entry larger than `RomSizeLimit` for `system` (or `sizeCap`, whichever is smaller).
    public func file(entry: String, in archive: URL, system: GameSystem,
                     sizeCap: Int = ArchiveReader.defaultSizeCap) throws -> URL {
        let systemCap = RomSizeLimit.bytes(for: system)
        let cap = min(sizeCap, systemCap)
        let file: URL
        do {
            file = try ArchiveReader.extract(entry: entry, from: archive, to: folder, sizeCap: cap)
        } catch ArchiveError.tooLarge(let archive, let entry, let refusedAt) where refusedAt == systemCap {
            throw ArchiveError.tooLargeForSystem(archive: archive, entry: entry, system: system.displayName, cap: refusedAt)
        }
        let entryFolder = file.deletingLastPathComponent()
        markUsed(entryFolder)
        evict(keeping: entryFolder.lastPathComponent)
        return file
    }

    private func markUsed(_ entryFolder: URL) {
        do {
            try FileManager.default.setAttributes([.modificationDate: now()], ofItemAtPath: entryFolder.path)
        } catch {
            Log.warning("extraction cache: cannot mark \(entryFolder.lastPathComponent) used: \(ErrorText.line(error))")
        }
    }

    /// One subfolder of the cache: when it was last used and the bytes it holds.
    struct Item {
        let name: String
        let lastUse: Date
        let bytes: Int64
    }

    func items() -> [Item] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.compactMap { name in
            let path = folder.appendingPathComponent(name).path
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeDirectory else { return nil }
            let files = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            let bytes = files.reduce(Int64(0)) { total, file in
                let size = (try? manager.attributesOfItem(atPath: path + "/" + file))?[.size] as? NSNumber
                return total + (size?.int64Value ?? 0)
            }
            return Item(name: name, lastUse: attributes[.modificationDate] as? Date ?? .distantPast, bytes: bytes)
        }
    }

    /// Deletes least recently used subfolders until the total fits, `kept` always staying.
    func evict(keeping kept: String) {
        let items = items()
        var total = items.reduce(Int64(0)) { $0 + $1.bytes }
        for item in items.sorted(by: { $0.lastUse < $1.lastUse }) where total > totalCap && item.name != kept {
            do {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(item.name))
                total -= item.bytes
                Log.info("extraction cache: removed \(item.name) (\(item.bytes) bytes, least recently used)")
            } catch {
                Log.warning("extraction cache: cannot remove \(item.name): \(ErrorText.line(error))")
            }
        }
    }
}
