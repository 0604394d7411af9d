import Foundation
import Library
import PhosphorKit

/// The browser's save-state preview: the newest state screenshot of a game (the automatic
/// state or any slot), decoded into half-block art once per file version and size. UI thread only.
struct PreviewCache {
    private var key: String?
    private var art: HalfBlockArt?

    mutating func invalidate() { key = nil }

    /// Art for the newest preview of `game`, nil when it has no state with a screenshot.
    mutating func art(for game: Game, stateFolder: URL, columns: Int, rows: Int) -> HalfBlockArt? {
        guard let (file, modified) = Self.newestPreview(for: game, in: stateFolder) else { return nil }
        let wanted = "\(file.path)|\(modified.timeIntervalSince1970)|\(columns)x\(rows)"
        if wanted != key {
            key = wanted
            art = HalfBlockArt(file: file, columns: columns, rows: rows)
        }
        return art
    }

    /// The most recently written state screenshot of `game` in `folder` (`paths.states/<system>`),
    /// named the way `StateStore` names them for the ROM file the game plays from.
    /// A game in an archive may be named after the archive (its only game) or after its entry.
    static func newestPreview(for game: Game, in folder: URL) -> (URL, Date)? {
        var names = [URL(fileURLWithPath: game.fileName)]
        if game.archiveEntry != nil { names.append(URL(fileURLWithPath: game.path)) }
        var newest: (URL, Date)?
        for name in names {
            let identity = GameIdentity(key: GameIdentity.key(forROM: name), system: game.system, coreName: "", coreVersion: "")
            if let found = newestPreview(of: StateStore(folder: folder, game: identity)),
               newest == nil || found.1 > newest!.1 {
                newest = found
            }
        }
        return newest
    }

    private static func newestPreview(of store: StateStore) -> (URL, Date)? {
        var newest: (URL, Date)?
        for slot in StateSlot.all {
            let file = store.screenshotFile(slot)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                  let modified = attributes[.modificationDate] as? Date else { continue }
            if newest == nil || modified > newest!.1 { newest = (file, modified) }
        }
        return newest
    }
}
