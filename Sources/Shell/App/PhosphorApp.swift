import Foundation
import Glibc
import Input
import PhosphorKit

/// The interactive program: owns the terminal, reads and decodes input, keeps the stack of
/// screens, and runs their actions. UI thread only (this is the main thread).
final class PhosphorApp {
    let terminal: TerminalSession
    let context: DrawContext
    let services: AppServices
    private var screens: [Screen] = []
    private var decoder = KeyDecoder()
    private var negotiation = KeyboardProtocolNegotiation()
    private var negotiationDeadline: ContinuousClock.Instant?
    private var needsDraw = true
    private var quitRequested = false
    /// Makes a screen for an action that needs one (the library for `.returnToLibrary`).
    var libraryScreenFactory: (() -> Screen)?

    init(services: AppServices) throws {
        self.services = services
        terminal = try TerminalSession(logFile: services.paths.logFile)
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
        // The synchronized-output query goes first: its reply, if any, comes before DA1's.
        terminal.write(SynchronizedOutput.query + negotiation.start())
        negotiationDeadline = .now + .milliseconds(400)
        waitForNegotiation()
        do {
            screens = [try makeFirstScreen(self)]
        } catch {
            services.exitMessage = "\(error)"
            return 1
        }
        while !quitRequested, !screens.isEmpty {
            step()
        }
        // Let every screen finish (the play screen writes its automatic state and SRAM).
        for screen in screens.reversed() { (screen as? ClosingScreen)?.close() }
        screens.removeAll()
        return services.exitMessage == nil ? 0 : 1
    }

    /// The kitty protocol query is answered within a round trip; menus draw after it so the
    /// first screen already knows whether key releases exist.
    private func waitForNegotiation() {
        while !negotiation.isFinished, let deadline = negotiationDeadline, ContinuousClock.now < deadline {
            _ = terminal.wait(timeout: deadline - .now)
            let now = ContinuousClock.now
            for event in decoder.decode(terminal.readAvailable(), now: now) { route(event, now: now) }
        }
        if !negotiation.isFinished { negotiation.timedOut() }
        Log.info("keyboard protocol: \(negotiation.state)")
    }

    private func step() {
        let now = ContinuousClock.now
        var actions: [AppAction] = []
        var timeout: Duration = .milliseconds(250)
        for screen in visibleScreens {
            if let wanted = screen.tick(now: now, context: context, actions: &actions) { timeout = min(timeout, wanted) }
        }
        perform(actions)
        if needsDraw { draw() }
        if let deadline = decoder.pendingDeadline { timeout = min(timeout, max(.zero, deadline - now)) }
        let wake = terminal.wait(timeout: timeout)
        for signal in wake.signals { handleSignal(signal) }
        let bytes = wake.input ? terminal.readAvailable() : []
        if terminal.hasHungUp, !quitRequested {
            Log.info("the terminal hung up: quitting")
            quitRequested = true
        }
        let later = ContinuousClock.now
        let events = bytes.isEmpty ? decoder.flush(now: later) : decoder.decode(bytes, now: later)
        for event in events { route(event, now: later) }
    }

    private func route(_ event: InputEvent, now: ContinuousClock.Instant) {
        switch event {
        case .modeReport(let mode, let setting):
            if mode == SynchronizedOutput.mode {
                terminal.setSynchronizedOutput(SynchronizedOutput.isSupported(setting: setting))
                Log.info("synchronized output: \(terminal.synchronizedOutput ? "yes" : "no") (DECRPM \(setting))")
            }
            return
        case .keyboardFlags, .deviceAttributes:
            let wasPushed = isPushed
            let reply = negotiation.handle(event)
            if !reply.isEmpty { terminal.write(reply) }
            if isPushed != wasPushed { terminal.setKeyboardFlagsPushed(isPushed) }
            return
        default:
            break
        }
        var actions: [AppAction] = []
        for screen in screens.reversed() {
            if screen.handle(event, now: now, actions: &actions) == .consumed { break }
            if !screen.isOverlay { break }
        }
        perform(actions)  // any action asks for a draw
        if !(screens.last?.drawsOnTicks ?? false) { needsDraw = true }
    }

    private var isPushed: Bool {
        switch negotiation.state {
        case .verifying, .active: true
        default: false
        }
    }

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGINT, SIGTERM, SIGHUP:
            Log.info("signal \(signal): quitting")
            quitRequested = true
        case SIGTSTP:
            for screen in screens { (screen as? SuspendingScreen)?.willSuspend() }
            terminal.suspend()
            for screen in screens { (screen as? SuspendingScreen)?.didResume() }
            redrawEverything()
        case SIGWINCH, SIGCONT:
            terminal.refreshSize()
            redrawEverything()
        default:
            break
        }
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
        context.cursesDirty = false
        for screen in visibleScreens { screen.draw(in: context) }
        CursesWindow.update()
    }

    func perform(_ actions: [AppAction]) {
        for action in actions {
            switch action {
            case .push(let screen):
                screens.append(screen)
            case .pop:
                if let closing = screens.popLast() as? ClosingScreen { closing.close() }
                // Every screen still visible repaints fully where the overlay was. No whole-screen
                // ncurses repaint here: it would paint ncurses' blank background over a game picture.
                for screen in visibleScreens { screen.becameTop() }
            case .play(let launch):
                do {
                    let play = try PlayScreen(launch: launch, services: services, releaseEvents: releaseEvents,
                                              terminal: terminal)
                    play.onFinished = { [services] seconds in services.onGameFinished?(launch, seconds) }
                    // The play screen's first frame repaints every cell of the terminal itself.
                    screens.append(play)
                    services.onGameStarted?(launch)
                } catch {
                    let message = "\(error)"
                    Log.error(message)
                    if let top = screens.last as? NotifiableScreen { top.notify(message) } else {
                        services.exitMessage = message
                        quitRequested = true
                    }
                }
            case .returnToLibrary:
                while let top = screens.last, top is PlayScreen || top.isOverlay {
                    (screens.removeLast() as? ClosingScreen)?.close()
                }
                if screens.isEmpty, let factory = libraryScreenFactory { screens.append(factory()) }
                screens.last?.becameTop()
                CursesWindow.repaintEverything()
            case .quit:
                quitRequested = true
            case .notify(let message):
                (screens.last as? NotifiableScreen)?.notify(message)
            case .redraw:
                break  // any action sets needsDraw below
            }
        }
        if !actions.isEmpty { needsDraw = true }
    }
}

/// A screen that must finish something when it goes away (stop the core, write saves).
protocol ClosingScreen: Screen {
    func close()
}

/// A screen that shows one-line messages.
protocol NotifiableScreen: Screen {
    func notify(_ message: String)
}

/// A screen that must pause work across Ctrl-Z.
protocol SuspendingScreen: Screen {
    func willSuspend()
    func didResume()
}
