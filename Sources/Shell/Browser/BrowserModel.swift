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
///
/// Built for big libraries: the games are kept in title order with a search index
/// (`GameSearchIndex`) and the other orders computed once per load, so a keystroke costs work
/// in proportion to the games that match, and typing on narrows the previous answer.
struct BrowserModel {
    /// How many recently played games the "Continue" section shows.
    static let continueLimit = 3

    /// Every game, in title order (folded search key, then id).
    private(set) var games: [Game] = []
    /// Recently played games, most recent first (from `GameLibrary.recentlyPlayed`).
    private(set) var recent: [Game] = []
    private var index = GameSearchIndex(keys: [])
    /// Position of each game (index into `games`) in the recent and most-played orders.
    private var ranks: [GameSort: [Int32]] = [:]
    private var counts: [GameSystem: Int] = [:]
    /// The last search and the games (indices into `games`) it matched, before the other filters.
    private var lastSearch: (text: String, matches: [Int32])?
    /// Indices into `games` of the listed games, in the chosen order.
    private var filtered: [Int32] = []

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
    /// selected when it is still listed. `searchKeys` are the library's stored keys, same order
    /// as `games` (computed here when nil).
    mutating func replaceGames(_ games: [Game], searchKeys: [String]? = nil, recent: [Game]) {
        let previous = selectedRow
        var keys = searchKeys ?? games.map(Self.sortKey(for:))
        // The library hands them over in this order already: check (linear) before sorting.
        func ordered(_ a: Int, _ b: Int, in games: [Game]) -> Bool {
            keys[a] != keys[b] ? keys[a] < keys[b] : games[a].id < games[b].id
        }
        if games.indices.dropFirst().allSatisfy({ ordered($0 - 1, $0, in: games) }) {
            self.games = games
        } else {
            let order = games.indices.sorted { ordered($0, $1, in: games) }
            self.games = order.map { games[$0] }
            keys = order.map { keys[$0] }
        }
        self.recent = recent
        let ordered = self.games
        index = GameSearchIndex(keys: keys) { " \u{1F} " + Self.systemKey(ordered[$0].system) }
        generation += 1
        ranks = [:]
        counts = [:]
        for position in self.games.indices { counts[self.games[position].system, default: 0] += 1 }
        lastSearch = nil
        rebuild(keeping: previous)
    }

    /// Bumped by every `replaceGames`, so an index built elsewhere for older games is refused.
    private(set) var generation = 0

    /// Builds the search index's trigram lists (once per load). Cheap to call again.
    mutating func prepareSearchIndex() { index.buildTrigrams() }

    /// The index as it is now, to build its trigram lists on another thread.
    var searchIndex: GameSearchIndex { index }

    /// Puts in an index built from `searchIndex` of `generation`; ignored when the games changed since.
    mutating func installSearchIndex(_ built: GameSearchIndex, generation: Int) {
        guard generation == self.generation, built.count == index.count else { return }
        index = built
    }

    var isSearchIndexReady: Bool { index.hasTrigrams }

    /// The library's `search_key` for a game: its folded title and folded file-name title.
    static func sortKey(for game: Game) -> String {
        GameLibrary.searchKey(title: game.title, fileTitle: LibraryScanner.title(fromFileName: game.fileName))
    }

    /// The system's names, folded, so "snes" or "color" finds a console's games.
    private static func systemKey(_ system: GameSystem) -> String { systemKeys[system] ?? "" }

    /// Folded once: folding is slow enough that doing it per game cost a tenth of a second at 20 000.
    private static let systemKeys: [GameSystem: String] = Dictionary(uniqueKeysWithValues: GameSystem.allCases.map {
        ($0, GameLibrary.folded($0.displayName + " \u{1F} " + $0.shortName))
    })

    /// The text a search matches: the folded title, the folded file-name title, and the system's
    /// names (so "snes" or "color" finds a console's games).
    static func searchKey(for game: Game) -> String {
        sortKey(for: game) + " \u{1F} " + systemKey(game.system)
    }

    /// True when every whitespace-separated word of `search` occurs in `key`, ignoring case and accents.
    static func matches(searchKey key: String, search: String) -> Bool {
        GameSearchIndex.matchesPlainly(key: key, search: search)
    }

    // MARK: Sidebar

    /// "All", then every system that has games, in `GameSystem` order.
    var sidebar: [SidebarEntry] {
        [SidebarEntry(system: nil, count: games.count)]
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
    var filteredGames: [Game] { filtered.map { games[Int($0)] } }

    /// How many games pass the filters.
    var filteredCount: Int { filtered.count }

    /// Games (indices into `games`) matching the search, ascending. Typing one more letter
    /// only re-checks the games the shorter search matched.
    private mutating func searchMatches() -> [Int32] {
        if search.isEmpty { return Array(0..<Int32(games.count)) }
        if let lastSearch, lastSearch.text == search { return lastSearch.matches }
        let extends = lastSearch.map { !$0.text.isEmpty && search.hasPrefix($0.text) } ?? false
        let matches = index.matching(search, within: extends ? lastSearch?.matches : nil)
        lastSearch = (search, matches)
        return matches
    }

    /// Indices into `games` that pass every filter, in the chosen order.
    private mutating func filteredIndices() -> [Int32] {
        // Fields read in place: copying each Game (three strings to retain) cost more than the test.
        let kept = searchMatches().filter { position in
            (system == nil || games[Int(position)].system == system) && (!favouritesOnly || games[Int(position)].favourite)
        }
        guard sort != .title else { return kept }
        let rank = rankOf(sort)
        return kept.sorted { rank[Int($0)] < rank[Int($1)] }
    }

    /// Each game's position in `sort`'s order, computed once per load.
    private mutating func rankOf(_ sort: GameSort) -> [Int32] {
        if let rank = ranks[sort] { return rank }
        let ordered = Self.sorted(Array(games.indices), by: sort, games: games)
        var rank = [Int32](repeating: 0, count: games.count)
        for (position, game) in ordered.enumerated() { rank[game] = Int32(position) }
        ranks[sort] = rank
        return rank
    }

    /// `GameLibrary.games`' orders, applied in memory to indices of `games` (title order).
    private static func sorted(_ indices: [Int], by sort: GameSort, games: [Game]) -> [Int] {
        indices.sorted { first, second in
            let a = games[first], b = games[second]
            switch sort {
            case .title:
                return first < second
            case .recent:
                switch (a.lastPlayed, b.lastPlayed) {
                case (let x?, let y?) where x != y: return x > y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return first < second
                }
            case .mostPlayed:
                if a.playTime != b.playTime { return a.playTime > b.playTime }
                if a.playCount != b.playCount { return a.playCount > b.playCount }
                return first < second
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
        filtered = filteredIndices()
        if !continuing.isEmpty {
            rows.append(.header("Continue"))
            rows += continuing.map { .continueGame($0) }
            rows.append(.header(system.map { "\($0.displayName) games" } ?? "All games"))
        }
        rows.reserveCapacity(rows.count + filtered.count)
        for position in filtered { rows.append(.game(games[Int(position)])) }
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

    /// Replaces one game (a favourite toggled) without a full reload: its title is unchanged,
    /// so it keeps its place and its search key.
    mutating func update(_ game: Game) {
        guard let position = games.firstIndex(where: { $0.id == game.id }) else { return }
        games[position] = game
        ranks = [:]
        recent = recent.map { $0.id == game.id ? game : $0 }
        let previous = selectedRow.map { row -> BrowserRow in
            switch row {
            case .continueGame(let old) where old.id == game.id: .continueGame(game)
            case .game(let old) where old.id == game.id: .game(game)
            default: row
            }
        }
        rebuild(keeping: previous)
    }
}
