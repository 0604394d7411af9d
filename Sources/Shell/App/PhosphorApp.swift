import Foundation
import Glibc
import Input
import PhosphorKit
import Render
import Terminal

/// The interactive program: owns the terminal, reads and decodes input, keeps the stack of
/// screens, runs their actions, and hands game commands to the running `GameSession`.
/// Screens never call each other: everything goes through `AppAction`s performed here.
/// UI thread only (this is the main thread).
final class PhosphorApp {
    let terminal: any TerminalDevice
    let context: DrawContext
    let services: AppServices
    private(set) var screens: [Screen] = []
    /// The game being played, and the screen that shows it.
    private(set) var session: GameSession?
    private weak var sessionScreen: PlayScreen?
    /// Whether each screen had another on top at the last look (to tell it when that changes).
    private var covered: [ObjectIdentifier: Bool] = [:]
    private var decoder = KeyDecoder()
    private var negotiation = TerminalNegotiation()
    private var needsDraw = true
    private(set) var quitRequested = false
    /// Makes a screen for an action that needs one (the library for `.returnToLibrary`).
    var libraryScreenFactory: (() -> Screen)?
    /// The environment the terminal quirks and NO_COLOR are read from: the services' one (tests
    /// set their own there).
    var environment: [String: String] { services.environment }
    /// The terminal's device (`/dev/pts/3`, `/dev/tty2`), which tells a Linux console; nil in tests.
    var ttyName: String?

    /// The app on a real terminal (the process's tty).
    convenience init(services: AppServices) throws {
        try self.init(services: services, terminal: TerminalSession(logFile: services.paths.logFile))
        ttyName = ttyname(0).map { String(cString: $0) }
    }

    /// The app on any terminal: a `HeadlessTerminal` runs it inside a test.
    init(services: AppServices, terminal: any TerminalDevice) {
        self.services = services
        self.terminal = terminal
        context = DrawContext(terminal: terminal)
        // ncurses clears the screen on its first update: let that happen before any picture.
        CursesWindow.update()
    }

    /// Whether the terminal reports key releases (kitty keyboard protocol active).
    var releaseEvents: Bool { negotiation.releaseEvents }

    /// Runs until the last screen closes or the user quits. `makeFirstScreen` runs once the
    /// terminal's keyboard protocol is known. Returns the exit code.
    func run(_ makeFirstScreen: (PhosphorApp) throws -> Screen) -> Int32 {
        defer { terminal.restore() }
        guard start(makeFirstScreen) else { return 1 }
        while !quitRequested, !screens.isEmpty {
            step()
        }
        finish()
        return services.exitMessage == nil ? 0 : 1
    }

    /// Asks the terminal what it can do, then opens the first screen. False when it failed
    /// (the reason is in `services.exitMessage`).
    func start(_ makeFirstScreen: (PhosphorApp) throws -> Screen) -> Bool {
        let quirks = TerminalQuirks(terminalName: CursesWindow.terminalName, environment: environment)
        // The file query needs a file of ours for the terminal to read (kitty deletes it if it did).
        let probe = (quirks.isTmux || quirks.isGNUScreen) ? nil : KittyFrameFile()
        let probePath = probe?.write([0, 0, 0])
        let graphics = quirks.mayAskBackground
            ? GraphicsDetection(multiplexer: quirks.isTmux ? "tmux" : quirks.isGNUScreen ? "GNU screen" : nil, probeFile: probePath)
            : nil
        // Not inside a multiplexer: tmux keeps a palette per pane, GNU screen has none to redefine.
        negotiation = TerminalNegotiation(asksBackground: quirks.mayAskBackground, graphics: graphics,
                                          asksPalette: !quirks.isTmux && !quirks.isGNUScreen)
        terminal.write(negotiation.start())
        waitForNegotiation(deadline: terminal.now + .milliseconds(400))
        if let probe, let probePath { probe.remove(probePath) }
        if let pixels = (terminal as? TerminalSession)?.windowPixels {
            negotiation.useWindowPixels(width: pixels.width, height: pixels.height, columns: terminal.columns, rows: terminal.rows)
        }
        services.graphics = negotiation.graphics.capabilities
        Log.info("graphics: \(services.graphics.summary)")
        if quirks.isTmux, services.graphics.insideTmux { services.tmuxPane = TmuxPane(environment: environment) }
        logTmuxPane()
        updatePixelMouse()
        adoptTheme()
        do {
            screens = [try makeFirstScreen(self)]
            stackChanged()
            if let advice = quirks.colourAdvice(paletteSize: CursesWindow.paletteSize) {
                Log.info(advice)
                (screens.last as? NotifiableScreen)?.notify(advice)
            }
            return true
        } catch {
            Log.error("\(error)")
            services.exitMessage = ErrorText.line(error)
            return false
        }
    }

    /// Lets every screen finish (the play screen writes its automatic state and SRAM).
    func finish() {
        for screen in screens.reversed() { (screen as? ClosingScreen)?.close() }
        screens.removeAll()
        session = nil
    }

    /// The kitty protocol query is answered within a round trip; menus draw after it so the
    /// first screen already knows whether key releases exist.
    private func waitForNegotiation(deadline: ContinuousClock.Instant) {
        while !negotiation.isFinished, !quitRequested, terminal.now < deadline {
            let wake = terminal.wait(timeout: deadline - terminal.now)
            // Signals in the wait count: foot resizes its window just after starting us (the
            // SIGWINCH came in this wait, measured), and Ctrl-C at start must still quit.
            for signal in wake.signals { handleSignal(signal) }
            let now = terminal.now
            for event in decoder.decode(terminal.readAvailable(), now: now) { route(event, now: now) }
        }
        if !negotiation.isFinished { negotiation.timedOut() }
        Log.info("keyboard protocol: \(negotiation.keyboard.state)")
    }

    /// One turn of the loop: tick the visible screens, draw, wait for input or a signal, route it.
    func step() {
        let now = terminal.now
        var actions: [AppAction] = []
        var timeout: Duration = .milliseconds(250)
        for screen in visibleScreens {
            if let wanted = screen.tick(now: now, context: context, actions: &actions) { timeout = min(timeout, wanted) }
        }
        perform(actions)
        if let session {
            for outcome in session.takeTickOutcomes() {
                tellObservers(session, outcome: outcome)
                needsDraw = true  // the screen that waited (a pad button bound) shows what happened
            }
        }
        if services.tmuxPane?.takeChange() == true {
            logTmuxPane()
            redrawEverything()
        }
        if needsDraw { draw() }
        if let deadline = decoder.pendingDeadline { timeout = min(timeout, max(.zero, deadline - now)) }
        let wake = terminal.wait(timeout: timeout)
        for signal in wake.signals { handleSignal(signal) }
        let bytes = wake.input ? terminal.readAvailable() : []
        if terminal.hasHungUp, !quitRequested {
            Log.info("the terminal hung up: quitting")
            quitRequested = true
        }
        let later = terminal.now
        let events = bytes.isEmpty ? decoder.flush(now: later) : decoder.decode(bytes, now: later)
        for event in events { route(event, now: later) }
    }

    private func route(_ event: InputEvent, now: ContinuousClock.Instant) {
        let before = (releaseEvents: negotiation.releaseEvents, background: negotiation.background)
        if negotiation.handle(event, terminal: terminal) {
            // Late answers count (inside tmux the kitty answer comes after tmux's own DA1): the
            // browser's preview and the game switch to pixels at their next draw.
            if services.graphics != negotiation.graphics.capabilities {
                services.graphics = negotiation.graphics.capabilities
                needsDraw = true
            }
            updatePixelMouse()
            // Answers keep counting after the start-up deadline (kitty can be that slow).
            if negotiation.releaseEvents, !before.releaseEvents, let session {
                Log.info("keyboard protocol (late answer): \(negotiation.keyboard.state)")
                session.input.switchToReleaseEvents()
                session.notify("key releases on (kitty keyboard protocol)", now: now)
            }
            if negotiation.background != before.background, adoptTheme() { redrawEverything() }
            return
        }
        // Raw mode turns off ISIG, so Ctrl-Z arrives as byte 0x1A (or as `CSI 122;5u` with the
        // kitty protocol) instead of as SIGTSTP: it suspends from every screen, as the signal does.
        if case .key(let key) = event, key.kind == .press, key.modifiers == .control, key.key == .character("z") {
            Log.info("Ctrl-Z: suspending")
            suspend()
            return
        }
        var actions: [AppAction] = []
        for screen in screens.reversed() {
            if screen.handle(event, now: now, actions: &actions) == .consumed { break }
            if !screen.isOverlay { break }
        }
        perform(actions)  // any action asks for a draw
        if !(screens.last?.drawsOnTicks ?? false) { needsDraw = true }
    }

    private func logTmuxPane() {
        guard let pane = services.tmuxPane else { return }
        Log.info("tmux pane at column \(pane.origin.column), row \(pane.origin.row)\(pane.problem.map { " (\($0))" } ?? "")")
    }

    /// Pixel mouse reports (mode 1016) on once the terminal said it has them and the cell size
    /// is known; the decoder reads reports as pixels exactly while they are on.
    private func updatePixelMouse() {
        let reports = negotiation.mousePixelReports
        guard reports != decoder.mousePixels else { return }
        if terminal.setPixelMouse(reports != nil) {
            decoder.mousePixels = reports
            if let reports { Log.info("mouse: pixel reports (cell \(reports.cell), first pixel \(reports.origin))") }
        } else {
            decoder.mousePixels = nil
        }
    }

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGINT, SIGTERM, SIGHUP:
            Log.info("signal \(signal): quitting")
            quitRequested = true
        case SIGTSTP:
            suspend()
        case SIGWINCH, SIGCONT:
            terminal.refreshSize()
            // A split or resized pane moves where its pictures go on the outer terminal: asked
            // off this thread; `step` redraws once the answer moved the pane.
            services.tmuxPane?.refreshInBackground()
            redrawEverything()
        default:
            break
        }
    }

    /// Gives the terminal back and stops (SIGTSTP or Ctrl-Z); the game pauses while stopped.
    private func suspend() {
        for screen in screens { (screen as? SuspendingScreen)?.willSuspend() }
        terminal.suspend()
        for screen in screens { (screen as? SuspendingScreen)?.didResume() }
        redrawEverything()
    }

    /// Menus in the colours this terminal has, readable on its background. True when they changed.
    @discardableResult
    private func adoptTheme() -> Bool {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        return Theme.adopt(depth: MenuPalette.Depth(paletteSize: CursesWindow.paletteSize, noColor: noColor),
                           background: negotiation.background)
    }

    func redrawEverything() {
        CursesWindow.repaintEverything()
        for screen in screens { screen.becameTop() }
        needsDraw = true
    }

    /// Screens from the topmost full-screen one upwards.
    private var visibleScreens: ArraySlice<Screen> {
        let base = screens.lastIndex { !$0.isOverlay } ?? 0
        return screens[base...]
    }

    private func draw() {
        needsDraw = false
        for screen in visibleScreens { screen.draw(in: context) }
        CursesWindow.update()
        for screen in screens { screen.drawOverText(in: context) }
    }

    /// Tells every screen whose cover changed (a screen pushed on it, or the last one above it gone).
    private func stackChanged() {
        var now: [ObjectIdentifier: Bool] = [:]
        for (index, screen) in screens.enumerated() {
            let id = ObjectIdentifier(screen)
            let isCovered = index < screens.count - 1
            now[id] = isCovered
            if covered[id] != isCovered, covered[id] != nil || isCovered { screen.coverChanged(covered: isCovered) }
        }
        covered = now
    }

    /// Starts a game: its session and the screen that plays it (not yet on the stack).
    func startGame(_ launch: GameLaunch) throws -> Screen {
        let session = try GameSession(launch: launch, services: services, releaseEvents: releaseEvents,
                                      keyRelease: openKeyReleaseSource(), now: terminal.now)
        // Play statistics go to the library (if one is open) like any other library command.
        session.onFinished = { [weak self] seconds in self?.perform([.library(.gameFinished(launch, seconds: seconds))]) }
        let screen = PlayScreen(session: session, services: services, terminal: terminal)
        self.session = session
        sessionScreen = screen
        return screen
    }

    /// Without the kitty protocol: real key releases from XInput2 or evdev where the system has
    /// them (see `KeyReleaseSourcePlan`).
    private func openKeyReleaseSource() -> KeyReleaseSourceOpening {
        guard !releaseEvents else { return KeyReleaseSourceOpening(source: nil, notice: nil) }
        let plan = KeyReleaseSourcePlan.choose(environment: environment, ttyName: ttyName)
        if let open = services.overrides.openKeyReleaseSource { return open(plan) }
        return KeyReleaseSourceOpening.open(plan)
    }

    /// Pops the top screen, letting it finish.
    private func popTop() {
        let top = screens.popLast()
        (top as? ClosingScreen)?.close()
        if let top, top === sessionScreen { session = nil }
    }

    /// Hands a command to the running game and its outcome to the screens that show the game.
    private func perform(_ command: GameCommand) {
        guard let session else { return }
        let outcome = session.perform(command, now: terminal.now)
        tellObservers(session, outcome: outcome)
    }

    private func tellObservers(_ session: GameSession, outcome: GameCommandOutcome) {
        let observers = screens.compactMap { $0 as? GameObservingScreen }
        guard !observers.isEmpty else { return }
        let snapshot = session.snapshot
        for observer in observers { observer.gameChanged(snapshot, outcome: observer === screens.last ? outcome : nil) }
    }

    func perform(_ actions: [AppAction]) {
        for action in actions {
            switch action {
            case .push(let screen):
                screens.append(screen)
                stackChanged()
            case .pop:
                popTop()
                stackChanged()
                // Every screen still visible repaints fully where the overlay was. No whole-screen
                // ncurses repaint here: it would paint ncurses' blank background over a game picture.
                for screen in visibleScreens { screen.becameTop() }
            case .closeOverlays:
                while let top = screens.last, top.isOverlay { popTop() }
                stackChanged()
                for screen in visibleScreens { screen.becameTop() }
            case .play(let launch):
                do {
                    // The play screen's first frame repaints every cell of the terminal itself.
                    screens.append(try startGame(launch))
                    stackChanged()
                    perform([.library(.gameStarted(launch))])
                } catch {
                    Log.error("\(error)")
                    let message = ErrorText.line(error)
                    if let top = screens.last as? NotifiableScreen { top.notify(message) } else {
                        services.exitMessage = message
                        quitRequested = true
                    }
                }
            case .returnToLibrary:
                // Everything from the game's screen up goes (a game from the command line has no library under it).
                if let gameScreen = sessionScreen, screens.contains(where: { $0 === gameScreen }) {
                    while let top = screens.last {
                        popTop()
                        if top === gameScreen { break }
                    }
                } else {
                    while let top = screens.last, top.isOverlay { popTop() }
                }
                if screens.isEmpty, let factory = libraryScreenFactory { screens.append(factory()) }
                stackChanged()
                screens.last?.becameTop()
                CursesWindow.repaintEverything()
            case .quit:
                quitRequested = true
            case .fail(let message):
                services.exitMessage = message
            case .notify(let message):
                (screens.last as? NotifiableScreen)?.notify(message)
            case .redraw:
                break  // any action sets needsDraw below
            case .game(let command):
                perform(command)
            case .library(let command):
                for screen in screens.reversed() {
                    if let handler = screen as? LibraryCommandHandling {
                        handler.perform(command)
                        let snapshot = handler.librarySnapshot
                        for observer in screens.compactMap({ $0 as? LibraryObservingScreen }) { observer.libraryChanged(snapshot) }
                        break
                    }
                }
            }
        }
        if !actions.isEmpty { needsDraw = true }
    }
}
