import Foundation
import Library
import PhosphorKit

/// One line of the browser's game list.
enum BrowserRow: Equatable {
    /// A section title ("Continue", "All games"); never selected.
    case header(String)
    /// A recently played game: Enter resumes it from its automatic state.
    case continueGame(Game)
    /// A game of the filtered list: Enter starts it fresh.
    case game(Game)

    var game: Game? {
        switch self {
        case .header: nil
        case .continueGame(let game), .game(let game): game
        }
    }

    var isSelectable: Bool { game != nil }
}

/// One entry of the systems sidebar: `system == nil` is "All".
struct SidebarEntry: Equatable {
    var system: GameSystem?
    var count: Int

    var label: String { system?.displayName ?? "All" }
}

/// What the browser shows, without any drawing: every game of the library, the filters the user
/// chose (system, search text, sort, favourites only), the rows that result, and which row is
/// selected. Pure value type so the list logic is tested without a terminal. UI thread only
/// (like any value, it belongs to whoever holds it).
struct BrowserModel {
    /// How many recently played games the "Continue" section shows.
    static let continueLimit = 3

    private(set) var games: [Game] = []
    /// Recently played games, most recent first (from `GameLibrary.recentlyPlayed`).
    private(set) var recent: [Game] = []
    /// Folded search keys by game id: the title and the file-name title, as the library folds them.
    private var searchKeys: [Int64: String] = [:]

    private(set) var system: GameSystem?
    private(set) var search = ""
    private(set) var sort: GameSort = .title
    private(set) var favouritesOnly = false

    private(set) var rows: [BrowserRow] = []
    /// Index into `rows` of the selected row; nil when no row can be selected.
    private(set) var selection: Int?

    init(games: [Game] = [], recent: [Game] = []) {
        replaceGames(games, recent: recent)
    }

    // MARK: Data

    /// New library contents (after a scan or a game): filters stay, and the same game stays
    /// selected when it is still listed.
    mutating func replaceGames(_ games: [Game], recent: [Game]) {
        let previous = selectedRow
        self.games = games
        self.recent = recent
        searchKeys = Dictionary(games.map { ($0.id, Self.searchKey(for: $0)) }, uniquingKeysWith: { first, _ in first })
        rebuild(keeping: previous)
    }

    /// The text a search matches: the folded title, the folded file-name title, and the system's
    /// names (so "snes" or "color" finds a console's games).
    static func searchKey(for game: Game) -> String {
        [game.title, LibraryScanner.title(fromFileName: game.fileName), game.system.displayName, game.system.shortName]
            .map(GameLibrary.folded).joined(separator: " \u{1F} ")
    }

    /// True when every whitespace-separated word of `search` occurs in `key`, ignoring case and accents.
    static func matches(searchKey key: String, search: String) -> Bool {
        GameLibrary.folded(search).split(whereSeparator: { $0.isWhitespace }).allSatisfy { key.contains($0) }
    }

    // MARK: Sidebar

    /// "All", then every system that has games, in `GameSystem` order.
    var sidebar: [SidebarEntry] {
        var counts: [GameSystem: Int] = [:]
        for game in games { counts[game.system, default: 0] += 1 }
        return [SidebarEntry(system: nil, count: games.count)]
            + GameSystem.allCases.compactMap { system in counts[system].map { SidebarEntry(system: system, count: $0) } }
    }

    /// Index of the current system in `sidebar`.
    var sidebarSelection: Int { sidebar.firstIndex { $0.system == system } ?? 0 }

    /// Moves the system filter up or down the sidebar (wrapping).
    mutating func moveSystem(by delta: Int) {
        let entries = sidebar
        let next = ((sidebarSelection + delta) % entries.count + entries.count) % entries.count
        selectSystem(entries[next].system)
    }

    mutating func selectSystem(_ system: GameSystem?) {
        guard system != self.system else { return }
        self.system = system
        rebuild(keeping: nil)
    }

    // MARK: Filters

    mutating func setSearch(_ text: String) {
        guard text != search else { return }
        search = text
        rebuild(keeping: nil)
    }

    /// Title → recent → most played → title.
    mutating func cycleSort() {
        let all = GameSort.allCases
        sort = all[((all.firstIndex(of: sort) ?? 0) + 1) % all.count]
        rebuild(keeping: selectedRow)
    }

    mutating func setSort(_ sort: GameSort) {
        self.sort = sort
        rebuild(keeping: selectedRow)
    }

    mutating func toggleFavouritesOnly() {
        favouritesOnly.toggle()
        rebuild(keeping: selectedRow)
    }

    /// The games that pass the filters, in the chosen order.
    var filteredGames: [Game] {
        let kept = games.filter { game in
            (system == nil || game.system == system)
                && (!favouritesOnly || game.favourite)
                && (search.isEmpty || Self.matches(searchKey: searchKeys[game.id] ?? "", search: search))
        }
        return Self.sorted(kept, by: sort, keys: searchKeys)
    }

    /// `GameLibrary.games`' orders, applied in memory.
    static func sorted(_ games: [Game], by sort: GameSort, keys: [Int64: String]) -> [Game] {
        func byTitle(_ a: Game, _ b: Game) -> Bool {
            let keyA = keys[a.id] ?? GameLibrary.folded(a.title)
            let keyB = keys[b.id] ?? GameLibrary.folded(b.title)
            return keyA != keyB ? keyA < keyB : a.id < b.id
        }
        return games.sorted { a, b in
            switch sort {
            case .title:
                return byTitle(a, b)
            case .recent:
                switch (a.lastPlayed, b.lastPlayed) {
                case (let x?, let y?) where x != y: return x > y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return byTitle(a, b)
                }
            case .mostPlayed:
                if a.playTime != b.playTime { return a.playTime > b.playTime }
                if a.playCount != b.playCount { return a.playCount > b.playCount }
                return byTitle(a, b)
            }
        }
    }

    /// The "Continue" games shown: only without a search or favourites filter, and of the chosen system.
    var continueGames: [Game] {
        guard search.isEmpty, !favouritesOnly else { return [] }
        return Array(recent.filter { system == nil || $0.system == system }.prefix(Self.continueLimit))
    }

    private mutating func rebuild(keeping previous: BrowserRow?) {
        var rows: [BrowserRow] = []
        let continuing = continueGames
        let listed = filteredGames
        if !continuing.isEmpty {
            rows.append(.header("Continue"))
            rows += continuing.map { .continueGame($0) }
            rows.append(.header(system.map { "\($0.displayName) games" } ?? "All games"))
        }
        rows += listed.map { .game($0) }
        self.rows = rows
        selection = nil
        if let previous, let kept = rows.firstIndex(of: previous) ?? rows.firstIndex(where: {
            $0.game?.id == previous.game?.id && $0.isSelectable
        }) {
            selection = kept
        } else {
            selection = rows.firstIndex { $0.isSelectable }
        }
    }

    // MARK: Selection

    var selectedRow: BrowserRow? { selection.map { rows[$0] } }

    /// Moves by `delta` selectable rows, stopping at the ends.
    mutating func moveSelection(by delta: Int) {
        let selectable = rows.indices.filter { rows[$0].isSelectable }
        guard !selectable.isEmpty else { return }
        let current = selection.flatMap { selectable.firstIndex(of: $0) } ?? 0
        selection = selectable[min(max(current + delta, 0), selectable.count - 1)]
    }

    mutating func selectFirst() { selection = rows.firstIndex { $0.isSelectable } }
    mutating func selectLast() { selection = rows.lastIndex { $0.isSelectable } }

    /// Selects a row (a click); headers are ignored. Returns whether the selection changed to it.
    @discardableResult
    mutating func select(row: Int) -> Bool {
        guard rows.indices.contains(row), rows[row].isSelectable else { return false }
        selection = row
        return true
    }

    /// Replaces one game (a favourite toggled) without a full reload.
    mutating func update(_ game: Game) {
        guard let index = games.firstIndex(where: { $0.id == game.id }) else { return }
        var updated = games
        updated[index] = game
        let recent = self.recent.map { $0.id == game.id ? game : $0 }
        let previous = selectedRow.map { row -> BrowserRow in
            switch row {
            case .continueGame(let old) where old.id == game.id: .continueGame(game)
            case .game(let old) where old.id == game.id: .game(game)
            default: row
            }
        }
        self.games = updated
        self.recent = recent
        rebuild(keeping: previous)
    }
}
