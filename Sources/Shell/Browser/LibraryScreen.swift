import Emulation
import Foundation
import Input
import Library
import PhosphorKit
import Terminal

/// The game browser: systems sidebar, game list with a "Continue" section, a preview of the
/// latest save state, type-to-search, sorts and favourites. Starts games with `.play`.
///
/// Threading: UI thread only. Library scans run on their own thread (`LibraryScanTask`); this
/// screen polls their progress on its ticks.
final class LibraryScreen: Screen, ClosingScreen, NotifiableScreen, LibraryCommandHandling {
    /// Smaller terminals get a message instead of the layout.
    static let minimumColumns = 40
    static let minimumRows = 12
    /// Narrower terminals get no systems sidebar (←→ still switch systems).
    static let sidebarMinimumColumns = 70

    let services: AppServices
    let library: GameLibrary
    /// The bundled demo cartridges, re-added at every start so they cannot be removed for good.
    let bundledRoms: URL?
    /// The first-run question about RetroArch's folders was considered (once per browser).
    private var askedAboutRetroArch = false
    private(set) var model = BrowserModel()
    private var status: (text: String, isError: Bool)?
    private var scan: LibraryScanTask?
    private var rescanWanted = false
    /// A dialog or menu lies on top (the app says so): ticks then do not draw over it.
    private var covered = false
    private var listScroll = 0
    private var clickTargets = ClickTargets()
    private var preview = PreviewCache()
    /// The preview drawn in real pixels (kitty graphics or sixel, as the video mode and the
    /// terminal allow); nil: half blocks.
    private var previewPixels: PreviewPixels?
    /// What the pane wants in pixels this draw: the picture, its key and its cells.
    private var pixelPreview: (image: PNGImage, key: String, cells: CellRect)?
    /// The terminal the last draw went to (for taking the picture down on close).
    private var terminal: (any TerminalDevice)?
    /// Phosphor's own thumbnail folder, then RetroArch's (`~/.config/retroarch/thumbnails`),
    /// with RetroArch's names for games from its databases and playlists.
    private let thumbnails: ThumbnailFinder
    /// The labels generation the preview was last drawn with: when the background reading
    /// ends, the pane is drawn again (its game may have art now).
    private var drawnLabelsGeneration = 0
    /// Search text typed since the last draw: keys that arrive together (fast typing, a paste)
    /// filter the list once, when it is drawn, instead of once per key.
    private var pendingSearch: String?
    /// The search index's trigram lists are built on the first tick after a load (after the
    /// first draw, so they do not delay the browser's opening).
    private var searchIndexWanted = false
    private var hasDrawn = false
    private var startupScanPending = false
    private var indexBuild: SearchIndexBuild?
    /// Watches the library folders after the first scan: a change starts a rescan `watchDelay`
    /// later (a copy of many files is one rescan, not one per file).
    private var watcher: FolderWatcher?
    private var watchedRescanAt: ContinuousClock.Instant?
    static let watchDelay: Duration = .milliseconds(500)

    /// Where rows and sidebar entries were drawn, for mouse clicks.
    private struct ClickTargets {
        var listRows: [Int: Int] = [:]
        var sidebarRows: [Int: GameSystem?] = [:]
        var sidebarWidth = 0
    }

    init(services: AppServices) throws {
        self.services = services
        library = try GameLibrary(url: services.paths.database)
        bundledRoms = BundledRoms.locate()
        // RetroArch's folder beside Phosphor's configuration (under PHOSPHOR_HOME, as in tests,
        // that is never the user's), with its retroarch.cfg's folder settings.
        let retroArch = RetroArchContentFolders.load(
            folder: services.paths.config.deletingLastPathComponent().appendingPathComponent("retroarch"),
            environment: services.environment)
        thumbnails = ThumbnailFinder(roots: [services.paths.data.appendingPathComponent("thumbnails"), retroArch.thumbnails],
                                     labels: ThumbnailLabelIndex(sources: retroArch.labelSources))
        if let note = library.recoveryNote { status = (note, true) }
        if library.isReadOnly {
            // Nothing can be stored: a library in memory gets the bundled cartridges scanned here
            // (a handful of small files; a background scan would open a memory library of its
            // own), a read-only file shows what it holds. The notice says why, once.
            if library.isInMemory, let bundledRoms {
                _ = try? library.addFolder(bundledRoms)
                _ = try? library.scan()
            }
            status = (library.readOnlyNote ?? "", true)
            reload()
            return
        }
        if let failure = Log.shared.openFailure, status == nil {
            status = ("the log cannot be written (\(failure)): it is kept in memory", true)
        }
        if status == nil, let note = services.takeConfigNotice() { status = (note, true) }
        if let bundledRoms {
            do { try library.addFolder(bundledRoms) } catch { status = (ErrorText.line(error), true) }
        }
        reload()
        // Started after the first draw: on two cores, its folder walk would slow the opening.
        startupScanPending = true
    }

    // MARK: Library data

    /// Reads every game and the recent list again (after a scan, a game, a folder change).
    func reload() {
        let started = ContinuousClock.now
        defer { Log.debug("browser: loaded \(model.games.count) games in " + Self.milliseconds(since: started)) }
        do {
            let listing = try library.gamesWithSearchKeys()
            model.replaceGames(listing.games, searchKeys: listing.searchKeys,
                               recent: try library.recentlyPlayed(limit: BrowserModel.continueLimit * 3))
            searchIndexWanted = true
        } catch {
            status = (ErrorText.line(error), true)
        }
    }

    func startScan() {
        startupScanPending = false
        guard !library.isReadOnly else { return }
        guard scan == nil else {
            rescanWanted = true
            return
        }
        scan = LibraryScanTask(database: library.url, extractionFolder: library.extractionFolder)
    }

    private func scanFinished(_ snapshot: LibraryScanTask.Snapshot) {
        scan = nil
        // Reloading 20 000 games takes a while on the UI thread: only when the scan changed some.
        if let report = snapshot.report, report.gamesAdded + report.gamesUpdated + report.gamesRemoved == 0 {
            // Nothing new: the list on screen is the library.
        } else {
            reload()
        }
        if watcher == nil { startWatching() }
        if let failure = snapshot.failure {
            status = (failure, true)
        } else if let report = snapshot.report {
            var parts = ["\(model.games.count) games"]
            if report.gamesAdded > 0 { parts.append("\(report.gamesAdded) new") }
            if report.gamesRemoved > 0 { parts.append("\(report.gamesRemoved) gone") }
            let problems = report.problems.filter { !isQuietProblem($0) }
            if !problems.isEmpty {
                parts.append("\(problems.count) skipped (see log)")
                for problem in problems { Log.warning(problem.message) }
            }
            if status == nil || status?.isError == false { status = (parts.joined(separator: " · "), false) }
        }
        if rescanWanted {
            rescanWanted = false
            startScan()
        }
    }

    /// (Re)starts watching every library folder; without inotify, only manual rescans find changes.
    private func startWatching() {
        do {
            watcher = try FolderWatcher(roots: try library.folders().map(\.url))
        } catch {
            watcher = nil
            Log.warning("library: folders are not watched (\(ErrorText.line(error))): F5 rescans")
        }
    }

    /// Starts a rescan once files stopped changing for `watchDelay`. Returns when to look again.
    private func checkWatchedFolders(now: ContinuousClock.Instant) -> Duration? {
        guard let watcher else { return nil }
        if watcher.takeChanges() { watchedRescanAt = now + Self.watchDelay }
        guard let due = watchedRescanAt else { return nil }
        if now >= due {
            watchedRescanAt = nil
            startScan()
            return nil
        }
        return due - now
    }

    /// The bundled folder's sources and scripts (Makefile, READMEs) are not worth a warning.
    private func isQuietProblem(_ problem: ScanProblem) -> Bool {
        guard let bundledRoms else { return false }
        return problem.path.hasPrefix(bundledRoms.path + "/")
    }

    private func hasCore(_ system: GameSystem) -> Bool {
        services.catalog.core(for: system, preferring: services.config.corePreferences[system]) != nil
    }

    // MARK: Playing

    private func launch(_ game: Game, resume: Bool, actions: inout [AppAction]) {
        if let reason = BrowserText.unplayableReason(game.system, hasCore: hasCore(game.system)) {
            status = ("\(BrowserText.title(of: game)): \(reason)", true)
            return
        }
        do {
            let rom = try library.playableFile(for: game)
            status = nil
            actions.append(.play(GameLaunch(rom: rom, system: game.system, title: DisplayText.sanitized(game.title),
                                            gameID: game.id, resume: resume, archive: archivedGame(game))))
        } catch {
            status = ("\(error)", true)
        }
    }

    /// The archive a game is played from, if any, and whether it is the archive's only game
    /// (then its files are named after the archive, as RetroArch names them).
    private func archivedGame(_ game: Game) -> ArchivedGame? {
        guard let entry = game.archiveEntry else { return nil }
        let gamesInArchive = (try? library.games().filter { $0.path == game.path }.count) ?? 1
        return ArchivedGame(archive: URL(fileURLWithPath: game.path), entry: entry, isOnlyGame: gamesInArchive == 1)
    }

        private func gameStarted(_ launch: GameLaunch) {
        guard let id = launch.gameID else { return }
        do { try library.recordPlayStart(gameID: id) } catch { Log.error("library: \(error)") }
    }

    private func gameFinished(_ launch: GameLaunch, seconds: Int) {
        guard let id = launch.gameID else { return }
        do { try library.recordPlayStop(gameID: id, seconds: seconds) } catch { Log.error("library: \(error)") }
        reload()
        // Back on the home view, the game just closed is the first "Continue" row: select it.
        pendingSearch = nil
        model.setSearch("")
        if let row = model.rows.firstIndex(where: { if case .continueGame(let game) = $0 { game.id == id } else { false } }) {
            model.select(row: row)
        }
    }

    // MARK: Folders

    private func addFolder(_ url: URL) {
        do {
            let folder = try library.addFolder(url)
            status = ("added \(DisplayText.sanitized(folder.url.path)); scanning…", false)
            watcher = nil   // watched again, with the new folder, when this scan ends
            startScan()
        } catch {
            status = ("\(error)", true)
        }
    }

    private func removeFolder(_ folder: URL) {
        do {
            try library.removeFolder(folder)
            status = ("removed \(DisplayText.sanitized(folder.path)) from the library", false)
            reload()
            startWatching()
        } catch {
            status = ("\(error)", true)
        }
    }

    func isBundled(_ folder: URL) -> Bool { folder.standardizedFileURL.path == bundledRoms?.standardizedFileURL.path }

    func openAddFolderDialog(actions: inout [AppAction]) { actions.append(.push(AddFolderDialog.make())) }

    /// Saves the answer to the RetroArch question (asked again next time when it cannot be saved).
    private func chooseRetroArchFolders(_ choice: RetroArchFoldersChoice) {
        services.configStore.config.retroArchFolders = choice
        do {
            try services.configStore.save()
            status = (choice == .share ? "saves, states and BIOS files: RetroArch's folders (\"retroArchFolders\" in config.json)"
                                       : "Phosphor keeps its own folders (\"retroArchFolders\" in config.json)", false)
        } catch {
            status = ("\(error)", true)
        }
    }

    // MARK: Commands

    func perform(_ command: LibraryCommand) {
        switch command {
        case .addFolder(let url): addFolder(url)
        case .removeFolder(let url): removeFolder(url)
        case .rescan: rescan()
        case .cycleSort: model.cycleSort()
        case .toggleFavouritesOnly: model.toggleFavouritesOnly()
        case .gameStarted(let launch): gameStarted(launch)
        case .gameFinished(let launch, let seconds): gameFinished(launch, seconds: seconds)
        case .chooseRetroArchFolders(let choice): chooseRetroArchFolders(choice)
        }
    }

    var librarySnapshot: LibrarySnapshot {
        let folders = ((try? library.folders()) ?? []).map { (url: $0.url, isBundled: isBundled($0.url)) }
        return LibrarySnapshot(sort: model.sort, favouritesOnly: model.favouritesOnly, folders: folders)
    }

    // MARK: Screen

    func notify(_ message: String) { status = (DisplayText.sanitized(message), true) }

    func becameTop() {
        preview.invalidate()
        // Back from a game or RetroArch's thumbnail updater: new playlists are read again.
        thumbnails.labels?.refresh()
        previewPixels?.invalidate()
    }

    /// The browser goes away (quit): no picture of it stays on the terminal.
    func close() {
        guard let previewPixels else { return }
        if let terminal { DrawContext(terminal: terminal).writeRaw(previewPixels.hide()) }
        previewPixels.removeLeftoverFiles()
    }

    /// After ncurses has flushed: the preview's pixels over the pane's blank cells, or taken
    /// down while a dialog, a menu or a game covers the browser.
    func drawOverText(in context: DrawContext) {
        guard let previewPixels else { return }
        context.writeRaw(previewPixels.bytes(covered: covered))
    }

    func coverChanged(covered: Bool) { self.covered = covered }

    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration? {
        if !askedAboutRetroArch {
            askedAboutRetroArch = true
            if RetroArchFolders.shouldAsk(config: services.config, environment: services.environment) {
                actions.append(.push(RetroArchFoldersQuestion()))
            }
        }
        if searchIndexWanted && hasDrawn {
            searchIndexWanted = false
            indexBuild = SearchIndexBuild(model.searchIndex, generation: model.generation)
        }
        if let built = indexBuild?.result {
            indexBuild = nil
            model.installSearchIndex(built.index, generation: built.generation)
            Log.debug("browser: search index built in \(built.milliseconds)")
        }
        if startupScanPending && hasDrawn {
            startupScanPending = false
            startScan()
        }
        let watchWake = scan == nil ? checkWatchedFolders(now: now) : nil
        let indexWake: Duration? = searchIndexWanted || indexBuild != nil || startupScanPending ? .milliseconds(20) : nil
        let labelsWake = labelsTick(context: context)
        guard let scan = self.scan else { return [indexWake, watchWake, labelsWake].compactMap { $0 }.min() }
        let snapshot = scan.snapshot
        if snapshot.isFinished { scanFinished(snapshot) }
        // The app draws after events only; progress needs drawing from here (not over a dialog).
        if !covered {
            draw(in: context)
            CursesWindow.update()
            drawOverText(in: context)
        }
        return self.scan == nil ? indexWake : .milliseconds(100)
    }

    /// Draws the pane again when RetroArch's labels have been read since it was drawn; asks to
    /// be woken while they are being read.
    private func labelsTick(context: DrawContext) -> Duration? {
        guard let labels = thumbnails.labels else { return nil }
        if labels.generation != drawnLabelsGeneration, hasDrawn, !covered, scan == nil {
            draw(in: context)
            CursesWindow.update()
            drawOverText(in: context)
            drawnLabelsGeneration = labels.generation
        }
        return labels.isWorking ? .milliseconds(50) : nil
    }

    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult {
        switch event {
        case .paste(let text):
            pendingSearch = searchText + BrowserText.fieldText(text)
        case .key(let key) where key.kind != .release:
            handleKey(key, event: event, actions: &actions)
        case .mouse:
            if let command = MenuCommand(event) { handleMenuCommand(command, actions: &actions) }
        default:
            break
        }
        return .consumed
    }

    /// The search as typed, including keys not yet applied to the list.
    private var searchText: String { pendingSearch ?? model.search }

    /// Filters the list by the typed search (before drawing, or before a key that reads the list).
    private func applyPendingSearch() {
        guard let pendingSearch else { return }
        self.pendingSearch = nil
        let started = ContinuousClock.now
        model.setSearch(pendingSearch)
        // `make bench` reads these lines for its keystroke-to-list time.
        Log.debug("browser: search filtered \(model.games.count) games to \(model.filteredCount) in "
            + Self.milliseconds(since: started))
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let value = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return String(format: "%.2f ms", value)
    }

    private func handleKey(_ key: KeyEvent, event: InputEvent, actions: inout [AppAction]) {
        let modifiers = key.modifiers.subtracting([.capsLock, .numLock])
        let typesSearch = modifiers != .control && (key.key == .backspace
            || (key.text != nil && (key.key != .character(" ") || !searchText.isEmpty)))
        if !typesSearch { applyPendingSearch() }
        if modifiers == .control, case .character(let letter) = key.key {
            switch letter {
            case "c", "q": actions.append(.quit)
            case "s": model.cycleSort()
            case "f": toggleFavourite()
            case "e": model.toggleFavouritesOnly()
            case "a": openAddFolderDialog(actions: &actions)
            case "r": rescan()
            case "o": actions.append(.push(BrowserMenu(snapshot: librarySnapshot)))
            case "u": model.setSearch("")
            default: break
            }
            return
        }
        switch key.key {
        case .function(2): model.cycleSort()
        case .function(3): toggleFavourite()
        case .function(4): model.toggleFavouritesOnly()
        case .function(5): rescan()
        case .function(9): actions.append(.push(BrowserMenu(snapshot: librarySnapshot)))
        case .function(10): actions.append(.quit)
        case .backspace:
            if !searchText.isEmpty { pendingSearch = String(searchText.dropLast()) }
        case .tab:
            model.moveSystem(by: modifiers.contains(.shift) ? -1 : 1)
        case .escape:
            model.setSearch("")
            status = nil
        default:
            if let text = key.text, key.key != .character(" ") || !searchText.isEmpty {
                // "/" opens the search: as the first character it only says "search".
                if text == "/" && searchText.isEmpty { return }
                pendingSearch = searchText + BrowserText.fieldText(text)
            } else if let command = MenuCommand(event) {
                handleMenuCommand(command, actions: &actions)
            }
        }
    }

    private func handleMenuCommand(_ command: MenuCommand, actions: inout [AppAction]) {
        switch command {
        case .up: model.moveSelection(by: -1)
        case .down: model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -10)
        case .pageDown: model.moveSelection(by: 10)
        case .scroll(let amount): model.moveSelection(by: amount)
        case .home: model.selectFirst()
        case .end: model.selectLast()
        case .left: model.moveSystem(by: -1)
        case .right: model.moveSystem(by: 1)
        case .select: launchSelection(actions: &actions)
        case .click(let column, let row):
            if column < clickTargets.sidebarWidth, let system = clickTargets.sidebarRows[row] {
                model.selectSystem(system)
            } else if let index = clickTargets.listRows[row] {
                // A click on the selected row starts it (a double click, in effect).
                if model.selection == index { launchSelection(actions: &actions) } else { model.select(row: index) }
            }
        case .interrupt: actions.append(.quit)
        case .back, .delete, .other: break
        }
    }

    private func launchSelection(actions: inout [AppAction]) {
        switch model.selectedRow {
        case .continueGame(let game): launch(game, resume: true, actions: &actions)
        case .game(let game): launch(game, resume: false, actions: &actions)
        default: break
        }
    }

    private func toggleFavourite() {
        guard let game = model.selectedRow?.game else { return }
        do {
            try library.toggleFavourite(gameID: game.id)
            if let updated = try library.game(id: game.id) { model.update(updated) }
        } catch {
            status = ("\(error)", true)
        }
    }

    private func rescan() {
        status = ("scanning…", false)
        startScan()
    }


    // MARK: Drawing

    func draw(in context: DrawContext) {
        applyPendingSearch()
        hasDrawn = true
        terminal = context.terminal
        updatePreviewPixels(context)
        pixelPreview = nil
        let columns = context.columns
        let rows = context.rows
        guard let window = CursesWindow(rows: rows, columns: columns, top: 0, left: 0) else { return }
        window.keepScreen()
        window.clear()
        defer {
            window.stage()
            handOverPixelPreview()
        }
        clickTargets = ClickTargets()
        guard columns >= Self.minimumColumns, rows >= Self.minimumRows else {
            let lines = ["Terminal too small", "\(columns)x\(rows), the browser needs \(Self.minimumColumns)x\(Self.minimumRows)"]
            for (offset, line) in lines.enumerated() {
                let row = max(0, rows / 2 - 1 + offset)
                window.put(line, row: row, column: max(0, (columns - line.count) / 2), width: columns, style: Theme.warning)
            }
            return
        }
        drawHeader(window, columns: columns)
        drawProgress(window, row: 1, columns: columns)
        let bodyTop = 2
        let bodyRows = rows - 4
        let sidebarWidth = columns >= Self.sidebarMinimumColumns ? 22 : 0
        let previewWidth = columns >= 110 ? min(44, columns / 3) : 0
        if sidebarWidth > 0 { drawSidebar(window, top: bodyTop, rows: bodyRows, width: sidebarWidth) }
        let listLeft = sidebarWidth
        let listWidth = columns - sidebarWidth - previewWidth
        drawList(window, top: bodyTop, rows: bodyRows, left: listLeft, width: listWidth)
        if previewWidth > 0 {
            drawPreview(window, top: bodyTop, rows: bodyRows, left: columns - previewWidth, width: previewWidth)
        }
        if let status {
            window.put(status.text, row: rows - 2, column: 1, width: columns - 2, style: status.isError ? Theme.warning : Theme.accent)
        }
        drawHelp(window, row: rows - 1, columns: columns)
    }

    /// Follows the video mode (`--video`, `video.videoMode`, the pause menu's choice) and what
    /// the terminal answered at start, as the play screen does.
    private func updatePreviewPixels(_ context: DrawContext) {
        let choice = services.overrides.videoMode ?? services.config.video.videoMode
        let output = VideoOutput.resolve(choice, capabilities: services.graphics).output
        guard output != previewPixels?.output ?? .blocks else { return }
        if let old = previewPixels { context.writeRaw(old.hide()) }
        previewPixels = output.isPixels ? PreviewPixels(output: output, passthrough: services.graphics.insideTmux, pane: services.tmuxPane) : nil
        if let output = previewPixels?.output { Log.info("preview: \(output.name)") }
    }

    /// Tells the pixel layer what this draw wants; a sixel that must go has its cells repainted
    /// by ncurses in this update (it would otherwise think they are blank already).
    private func handOverPixelPreview() {
        guard let previewPixels else { return }
        let wanted = pixelPreview
        if let stale = previewPixels.want(wanted?.image, key: wanted?.key ?? "", in: wanted?.cells ?? CellRect(x: 0, y: 0, columns: 0, rows: 0)),
           let cells = CursesWindow(rows: stale.rows, columns: stale.columns, top: stale.y, left: stale.x) {
            cells.forceRepaint()
        }
    }

    private func drawHeader(_ window: CursesWindow, columns: Int) {
        window.putPadded("", row: 0, column: 0, width: columns, style: Theme.selectedInactive)
        var column = window.put(" PHOSPHOR ", row: 0, column: 0, style: Theme.selected)
        let search = model.search.isEmpty ? "type to search" : DisplayText.sanitized(model.search) + "▏"
        column += window.put("  Search: ", row: 0, column: column, style: Theme.selectedInactive)
        var searchStyle = Theme.selectedInactive
        searchStyle.underline = !model.search.isEmpty  // not bold: xterm would brighten the black text
        searchStyle.dim = model.search.isEmpty
        column += window.put(search, row: 0, column: column, width: max(0, columns / 2 - column), style: searchStyle)
        var right = ["sort: \(BrowserText.sortName(model.sort))"]
        // Without the sidebar (narrow terminals) the header says which system is shown.
        if columns < Self.sidebarMinimumColumns { right.insert(model.system?.displayName ?? "All", at: 0) }
        if model.favouritesOnly { right.append("★ only") }
        right.append("\(model.filteredCount) of \(model.games.count)")
        let text = right.joined(separator: " │ ") + " "
        let start = max(column + 1, columns - text.count)
        window.put(text, row: 0, column: start, width: columns - start, style: Theme.selectedInactive)
    }

    private func drawProgress(_ window: CursesWindow, row: Int, columns: Int) {
        guard let scan, let progress = scan.snapshot.progress,
              ContinuousClock.now - scan.startedAt > .milliseconds(300) || progress.totalGuess > 50 else {
            window.put(String(repeating: "─", count: columns), row: row, column: 0, style: Theme.border)
            return
        }
        if progress.isWalking {
            let column = window.put(BrowserText.walkingLabel(progress), row: row, column: 0, style: Theme.accent)
            window.put(" " + progress.currentFolder, row: row, column: column, width: max(0, columns - column), style: Theme.dimText)
            return
        }
        let label = " Scanning \(progress.filesSeen)/\(progress.totalGuess) "
        var column = window.put(label, row: row, column: 0, style: Theme.accent)
        let barWidth = min(30, max(0, columns - column - 2))
        column += window.put(BrowserText.progressBar(done: progress.filesSeen, total: progress.totalGuess, width: barWidth),
                             row: row, column: column, style: Theme.title)
        let counts = " \(progress.gamesFound) \(progress.gamesFound == 1 ? "game" : "games") · \(progress.skipped) skipped"
        column += window.put(counts, row: row, column: column, width: max(0, columns - column), style: Theme.accent)
        window.put(" " + progress.currentFile, row: row, column: column, width: max(0, columns - column), style: Theme.dimText)
    }

    private func drawSidebar(_ window: CursesWindow, top: Int, rows: Int, width: Int) {
        clickTargets.sidebarWidth = width
        window.put("Systems", row: top, column: 1, width: width - 2, style: Theme.title)
        let current = model.sidebarSelection
        for (index, entry) in model.sidebar.enumerated() where index + 1 < rows {
            let row = top + 1 + index
            let count = "\(entry.count)"
            let style = index == current ? Theme.selected : Theme.text
            window.putPadded(" " + entry.label, row: row, column: 0, width: width - 1, style: style)
            window.put(count, row: row, column: width - 2 - count.count, style: style)
            clickTargets.sidebarRows[row] = entry.system
        }
        for row in top..<(top + rows) { window.put("│", row: row, column: width - 1, style: Theme.border) }
    }

    private func drawList(_ window: CursesWindow, top: Int, rows: Int, left: Int, width: Int) {
        let systemWidth = 5
        let lastWidth = min(22, max(10, width / 4))
        let titleWidth = max(4, width - systemWidth - lastWidth - 4)
        window.put("Title", row: top, column: left + 2, width: titleWidth, style: Theme.title)
        window.put("Sys", row: top, column: left + 2 + titleWidth + 1, style: Theme.title)
        window.put("Last played", row: top, column: left + width - lastWidth - 1, width: lastWidth, style: Theme.title)
        let visible = max(1, rows - 1)
        guard !model.rows.isEmpty else {
            let message = model.games.isEmpty
                ? (scan == nil && !startupScanPending ? "No games yet: Ctrl-A adds a folder." : "Looking for games…")
                : "No game matches."
            window.put(message, row: top + 2, column: left + 2, width: width - 4, style: Theme.dimText)
            return
        }
        let selection = model.selection ?? 0
        if selection < listScroll { listScroll = selection }
        if selection >= listScroll + visible { listScroll = selection - visible + 1 }
        listScroll = max(0, min(listScroll, max(0, model.rows.count - visible)))
        // Keep a section header in view above the first rows.
        if listScroll == 1, case .header = model.rows[0] { listScroll = 0 }
        let now = Date()
        for (offset, index) in (listScroll..<min(model.rows.count, listScroll + visible)).enumerated() {
            let row = top + 1 + offset
            switch model.rows[index] {
            case .header(let text):
                window.put(text, row: row, column: left + 1, width: width - 2, style: Theme.accent)
            case .continueGame(let game), .game(let game):
                clickTargets.listRows[row] = index
                let isContinue = if case .continueGame = model.rows[index] { true } else { false }
                let reason = BrowserText.unplayableReason(game.system, hasCore: hasCore(game.system))
                let selected = index == model.selection
                let style = selected ? (reason == nil ? Theme.selected : Theme.selectedInactive)
                    : (reason == nil ? Theme.text : Theme.unavailable)
                window.putPadded((isContinue ? " ▶ " : "   ") + BrowserText.title(of: game),
                                 row: row, column: left, width: titleWidth + 2, style: style)
                window.putPadded(" " + game.system.shortName, row: row, column: left + 2 + titleWidth, width: systemWidth + 1, style: style)
                let last = reason ?? BrowserText.lastPlayed(game.lastPlayed, now: now)
                window.putPadded(" " + last, row: row, column: left + width - lastWidth - 2,
                                 width: lastWidth + 2, style: style)
            }
        }
    }

    private func drawPreview(_ window: CursesWindow, top: Int, rows: Int, left: Int, width: Int) {
        for row in top..<(top + rows) { window.put("│", row: row, column: left, style: Theme.border) }
        guard let game = model.selectedRow?.game else { return }
        let inner = width - 3
        var row = top
        window.put(BrowserText.title(of: game), row: row, column: left + 2, width: inner, style: Theme.title)
        row += 1
        window.put(game.system.displayName, row: row, column: left + 2, width: inner, style: Theme.text)
        row += 1
        let played = game.playCount == 0 ? "never played"
            : "played \(BrowserText.lastPlayed(game.lastPlayed)) · \(BrowserText.playTime(seconds: game.playTime)) total"
        window.put(played, row: row, column: left + 2, width: inner, style: Theme.dimText)
        row += 1
        if let reason = BrowserText.unplayableReason(game.system, hasCore: hasCore(game.system)) {
            window.put(reason, row: row, column: left + 2, width: inner, style: Theme.warning)
        }
        row += 2
        let artRows = min(rows - (row - top), inner * 3 / 8 + 1)
        guard artRows >= 3 else { return }
        let stateFolder = services.paths.states.appendingPathComponent(game.system.rawValue)
        let kind = services.config.libraryArt
        drawnLabelsGeneration = thumbnails.labelsGeneration
        if let found = preview.art(for: game, finder: thumbnails, kind: kind, stateFolder: stateFolder,
                                   columns: inner, rows: artRows - 1) {
            if previewPixels != nil {
                // The cells stay blank: the picture goes over them after the update.
                pixelPreview = (found.image, found.key, CellRect(x: left + 2, y: row, columns: inner, rows: artRows - 1))
            } else {
                found.art.draw(in: window, row: row, column: left + 2)
            }
            let caption = switch found.source {
            case .thumbnail(.boxart): "box art"
            case .thumbnail(.title): "title screen"
            case .thumbnail(.snap): "snap"
            case .saveState: "latest save state"
            }
            window.put(caption, row: row + artRows - 1, column: left + 2, width: inner, style: Theme.dimText)
        } else {
            // Neither art nor a state: the title, large enough to fill the place of a picture.
            window.put(BrowserText.title(of: game), row: row + artRows / 2, column: left + 2, width: inner, style: Theme.title)
            window.put("no box art or save state yet", row: row + artRows / 2 + 1, column: left + 2, width: inner,
                       style: Theme.dimText)
        }
    }

    private func drawHelp(_ window: CursesWindow, row: Int, columns: Int) {
        let entries: [(String, String)] = [
            ("↑↓", "game"), ("←→", "system"), ("Enter", "play"), ("type", "search"), ("Esc", "clear"),
            ("^S", "sort"), ("^F", "★"), ("^E", "★ only"), ("^A", "add folder"), ("^O", "menu"), ("^Q", "quit"),
        ]
        var column = 1
        for (key, meaning) in entries {
            guard column + key.count + meaning.count + 2 < columns else { break }
            column += window.put(key, row: row, column: column, style: Theme.helpKey)
            column += window.put(" \(meaning)  ", row: row, column: column, style: Theme.help)
        }
    }
}
