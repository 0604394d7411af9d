import Foundation
import Library
import PhosphorKit

/// What the browser's preview pane shows for a game: its thumbnail (box art, title screen or
/// snap, by the `libraryArt` setting) when one is found, else the newest save-state screenshot
/// (the automatic state or any slot); nil leaves the pane to the game's title. Decoded into
/// half-block art once per file version and size. A PNG that does not decode is skipped with
/// one line in the log (once per file, not once per draw). UI thread only.
struct PreviewCache {
    /// Where the picture came from (the pane says so under it).
    enum Source: Equatable {
        case thumbnail(ThumbnailKind)
        case saveState
    }

    /// The picture the pane shows: its half-block art, the decoded image (for pixel mode) and a
    /// key naming the file version, which changes when the picture does.
    struct Preview {
        var art: HalfBlockArt
        var image: PNGImage
        var source: Source
        var key: String
    }

    private var key: String?
    private var decoded: (art: HalfBlockArt, image: PNGImage)?
    /// Thumbnail lookups by game id (a few `stat` calls each, not repeated on every draw).
    private var thumbnails: [Int64: URL?] = [:]
    /// The finder's labels generation the lookups were made with: when RetroArch's labels
    /// arrive (read in the background), games found without art are looked up again.
    private var labelsGeneration = 0
    /// Files that did not decode, already logged.
    private var broken: Set<String> = []
    private let log: (String) -> Void

    init(log: @escaping (String) -> Void = { Log.warning($0) }) {
        self.log = log
    }

    /// Forgets the lookups (a game may have been played, a thumbnail added).
    mutating func invalidate() {
        key = nil
        thumbnails = [:]
    }

    /// The art to show for `game`, and where it came from; nil when it has neither a thumbnail
    /// nor a state with a screenshot.
    mutating func art(for game: Game, finder: ThumbnailFinder, kind: ThumbnailKind, stateFolder: URL,
                      columns: Int, rows: Int) -> Preview? {
        if finder.labelsGeneration != labelsGeneration {
            labelsGeneration = finder.labelsGeneration
            thumbnails = [:]
        }
        if thumbnails[game.id] == nil { thumbnails[game.id] = .some(finder.file(for: game, kind: kind)) }
        if let file = thumbnails[game.id] ?? nil, let found = picture(file, columns: columns, rows: rows) {
            return Preview(art: found.art, image: found.image, source: .thumbnail(kind), key: key ?? "")
        }
        if let (file, _) = Self.newestPreview(for: game, in: stateFolder), let found = picture(file, columns: columns, rows: rows) {
            return Preview(art: found.art, image: found.image, source: .saveState, key: key ?? "")
        }
        return nil
    }

    /// The decoded art of `file`, from the cache when the file and size are unchanged.
    private mutating func picture(_ file: URL, columns: Int, rows: Int) -> (art: HalfBlockArt, image: PNGImage)? {
        guard !broken.contains(file.path),
              let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date else {
            return nil
        }
        let wanted = "\(file.path)|\(modified.timeIntervalSince1970)|\(columns)x\(rows)"
        if wanted == key, let decoded { return decoded }
        do {
            let image = try PNGImage(decoding: [UInt8](try Data(contentsOf: file)))
            key = wanted
            decoded = (HalfBlockArt(image: image, columns: columns, rows: rows), image)
            return decoded
        } catch {
            broken.insert(file.path)
            log("preview: \(DisplayText.sanitized(file.path)): not a readable PNG (\(ErrorText.line(error))); skipped")
            return nil
        }
    }

    /// Where `StateStore` puts the automatic state's screenshot of `game` (tests write one there).
    static func statesScreenshotForTests(game: Game, folder: URL) -> URL {
        StateStore(folder: folder, game: identity(of: game)).screenshotFile(StateSlot.all[0])
    }

    /// The identity states of `game` are stored under: named after its file, or (a game that is
    /// its archive's only one) after the archive, `named`.
    private static func identity(of game: Game, named name: String? = nil) -> GameIdentity {
        GameIdentity(key: GameIdentity.key(forROM: URL(fileURLWithPath: name ?? game.fileName)),
                     system: game.system, coreName: "", coreVersion: "")
    }

    /// The most recently written state screenshot of `game` in `folder` (`paths.states/<system>`),
    /// named the way `StateStore` names them for the ROM file the game plays from.
    /// A game in an archive may be named after the archive (its only game) or after its entry.
    static func newestPreview(for game: Game, in folder: URL) -> (URL, Date)? {
        var names = [game.fileName]
        if game.archiveEntry != nil { names.append(game.path) }
        var newest: (URL, Date)?
        for name in names {
            if let found = newestPreview(of: StateStore(folder: folder, game: identity(of: game, named: name))),
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
