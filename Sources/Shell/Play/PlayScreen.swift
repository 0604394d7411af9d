import Emulation
import Foundation
import Input
import PhosphorKit
import Render
import Terminal

/// The game in the terminal: draws the session's newest frame, the skin, the key legend and the
/// status bar on every display tick, and turns key events into the session's calls or app
/// actions. Everything about the running game itself lives in `GameSession`.
///
/// Threading: UI thread only.
final class PlayScreen: Screen, ClosingScreen, SuspendingScreen, NotifiableScreen {
    let session: GameSession
    private let picture: PlayPicture
    private let skin: Skin
    private let clock: () -> ContinuousClock.Instant
    private var status = PlayStatusLine()
    private var cadence: DisplayCadence
    /// Frames taken from the mailbox and the real time they waited there in all (logged on exit:
    /// how long after the core made a frame the screen took it).
    private var framesTaken = 0
    private var frameWaits = Duration.zero
    /// How many frames were drawn, and the UI-thread CPU of drawing them (logged on exit). The
    /// CPU is read around every `drawingSampleInterval`-th attempt only, and the log scales the
    /// sum up: the thread's CPU clock is a system call (about 5 µs on the bench machine; read
    /// twice a frame, 1 % of a 120x50 run's CPU).
    private var renderCount = 0
    private var renderAttempts = 0
    private var sampledAttempts = 0
    private var sampledRenderCPU = Duration.zero
    private static let drawingSampleInterval = 8
    private var needsRender = true
    /// An event other than a probe's answer reached the screen since the last full tick (a key,
    /// a paste, the mouse): the next wake hands the buttons to the core at once, due or not.
    private var eventSinceTick = true
    private var shownNotice: String?
    private var closed = false
    private unowned let terminal: any TerminalDevice
    /// What the terminal said about pixels at start, and the video mode the picture follows now.
    private var graphics: GraphicsCapabilities
    private let services: AppServices
    private var videoChoice: VideoModeChoice?
    /// Set when the link proved too slow for pixels: half blocks for the rest of the game.
    private var pixelsTooSlow = false
    private var pixelLink = PixelLinkMonitor()
    /// The screens' cells last written to the log (RealTerminalTests find the picture by them).
    private var loggedScreenCells: [CellRect] = []
    /// The key legend last built, for the layout's legend and the key map's revision it was built
    /// from (it names keys and buttons through several lookups and strings: once, not per frame).
    private var legendCache: (legend: SkinLayout.Legend?, keyMapRevision: Int, entries: [(label: String, keys: [String])])?

    init(session: GameSession, services: AppServices, terminal: any TerminalDevice) {
        self.session = session
        clock = { [unowned terminal] in terminal.now }
        self.terminal = terminal
        graphics = services.graphics
        self.services = services
        cadence = DisplayCadence(start: terminal.now)
        picture = PlayPicture(colorMode: session.colorMode, integerScale: session.integerScale,
                              synchronizedOutput: terminal.synchronizedOutput, repeatsCharacters: terminal.repeatsCharacters,
                              editsLines: terminal.editsLines, fullBlockFillsCell: terminal.fullBlockFillsCell,
                              shiftedRowsWaitForTheServer: terminal.shiftedRowsWaitForTheServer,
                              pacing: session.linkPacing, palette: terminal.palette)
        let skinResult = services.skins.skin(for: session.system)
        skin = skinResult.skin
        let notices = (services.takeConfigNotice().map { [$0] } ?? []) + skinResult.errors.map(\.description)
            + session.startNotices
        session.queueNotices(notices, seconds: 6, now: terminal.now)  // each in turn, 6 s apiece
        for notice in notices { Log.warning(notice) }
        Log.info("graphics: \(graphics.summary)")
        updateVideoOutput()
    }

    // MARK: Pixels

    /// Follows the session's video mode (`--video`, the pause menu): swaps the picture between
    /// half blocks and the pixel layer, taking down what the old one showed.
    private func updateVideoOutput() {
        let choice = pixelsTooSlow ? VideoModeChoice.blocks : session.videoMode
        // A late answer counts: inside tmux the outer terminal's kitty answer comes after DA1,
        // and a terminal busy at start answers after the wait (a late DA1's sixel, cell size).
        var lateAnswer = false
        if services.graphics != graphics {
            graphics = services.graphics
            videoChoice = nil
            lateAnswer = true
        }
        guard choice != videoChoice else { return }
        let firstTime = videoChoice == nil
        videoChoice = choice
        let (output, notice) = VideoOutput.resolve(choice, capabilities: graphics)
        let hadPixels = picture.pixels != nil
        if let old = picture.pixels, old.output != output { terminal.write(old.hide()) }
        if picture.pixels?.output != output {
            picture.pixels = output.isPixels ? PlayPixelLayer(output: output, passthrough: graphics.insideTmux, pane: services.tmuxPane) : nil
        }
        Log.info("video: \(choice.rawValue) → \(output.name)\(notice.map { " (\($0))" } ?? "")")
        // Said once: at start for auto (only when something blocked pixels), and whenever the
        // player asked for a mode that cannot be had.
        if let notice, choice != .auto || firstTime { session.notify(notice, now: clock()) }
        // The half-block notice said at start no longer holds: say what took its place.
        if lateAnswer, notice == nil, output.isPixels, !hadPixels {
            session.notify("pixels: \(output.name)\(graphics.insideTmux ? " through tmux's passthrough" : "")", now: clock())
        }
        repaintFully()
    }

    /// Takes the pixel pictures down (a menu over them, suspend, quit).
    private func hidePixels() {
        if let pixels = picture.pixels { terminal.write(pixels.hide()) }
        picture.pixelsHidden = true
        picture.invalidate()
    }

    /// Brings them back (the menu closed, the game resumed).
    private func showPixels() {
        picture.pixelsHidden = false
        repaintFully()
    }

    private var quitAction: AppAction { session.launchedFromLibrary ? .returnToLibrary : .quit }

    // MARK: Screen

    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult {
        if case .cursorPosition = event {
            // The answer to the probe after a frame: the link has carried it.
            picture.pacer.replyReceived(now: now)
            return .consumed
        }
        eventSinceTick = true
        if case .key(let key) = event, key.kind != .release, key.modifiers == .control, key.key == .character("l") {
            picture.invalidate()
            needsRender = true
            return .consumed
        }
        if case .key(let key) = event, key.kind == .press, key.modifiers == .control, key.key == .character("c") {
            actions.append(quitAction)
            return .consumed
        }
        actions += appActions(for: session.handle(event, now: now))
        // What a key changes shows in the next frame (the picture) or the status line (checked
        // on the next tick).
        status.markStale()
        return .consumed
    }

    /// What the session hands back from a key or a pad button: the pause menu, quitting.
    private func appActions(for inputActions: [InputAction]) -> [AppAction] {
        inputActions.compactMap { action in
            switch action {
            case .pauseMenu: .push(PauseMenu(snapshot: session.snapshot))
            case .quit: quitAction
            default: nil
            }
        }
    }

    var drawsOnTicks: Bool { true }

    /// The pause menu (or a dialog) opened over the game, or closed: the game waits under it.
    func coverChanged(covered: Bool) {
        session.setPaused(covered, for: .menu)
        status.markStale()
        if covered {
            hidePixels()
            terminal.write(picture.releasePalette())
        } else {
            picture.resumePalette()
            showPixels()
        }
    }

    func becameTop() { repaintFully() }

    private func repaintFully() {
        status.markStale()
        // Answers to probes sent before a menu opened went to the menu.
        picture.pacer.forgetFramesInFlight()
        picture.invalidate()
        needsRender = true
    }

    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration? {
        // The answer to each frame's probe wakes the loop between display ticks. With no key
        // since the last tick and no frame held back by the link, that wake changes nothing the
        // core reads or the player sees: the buttons, pads, status and the next frame wait for
        // the tick that is due (the play loop woke 2.3 times a frame, and this work was a tenth
        // of the UI thread's time).
        if !eventSinceTick && !needsRender && now < cadence.nextTick { return cadence.nextTick - now }
        eventSinceTick = false
        let coreStatus = session.tick(now: now)
        actions += appActions(for: session.takePadAppActions())
        switch coreStatus.state {
        case .stopped, .crashed:
            if case .crashed(let message) = coreStatus.state { actions.append(.fail(message)) }
            actions.append(quitAction)
            return nil
        default:
            break
        }
        if picture.colorMode != session.colorMode { picture.colorMode = session.colorMode }
        updateVideoOutput()
        let fps = min(max(coreStatus.avInfo?.framesPerSecond ?? 60, 30), 60)
        let period = Duration.nanoseconds(Int64(1e9 / fps))
        if let frame = session.thread.mailbox.takeLatest() {
            status.countShownFrame(now: now)
            // Most games repeat identical frames often; drawing them again would only cost CPU.
            if !(session.lastFrame.map(frame.hasSamePicture) ?? false) { needsRender = true }
            session.lastFrame = frame
            let realNow = ContinuousClock.now  // the clock the core published by (`now` may be a test's)
            frameWaits += realNow - frame.publishedAt
            framesTaken += 1
            cadence.follow(frameAt: frame.publishedAt, sequence: frame.sequence, now: now, realNow: realNow, period: period)
        } else {
            cadence.tookNoFrame(now: now)
        }
        status.linkStats = picture.pacer.stats
        if status.update(coreStatus, session: session, input: session.input, now: now) { needsRender = true }
        if session.notice?.text != shownNotice {
            shownNotice = session.notice?.text
            needsRender = true
        }
        if needsRender && !session.isHeldByMenu {
            let before = renderAttempts % PlayScreen.drawingSampleInterval == 0 ? try? ThreadCPUTime.current() : nil
            renderAttempts += 1
            // A busy link skips the frame (needsRender stays set: the next tick draws the newest).
            if render(context: context, coreStatus: coreStatus, now: now, paced: true) {
                needsRender = false
                renderCount += 1
            }
            if let before, let after = try? ThreadCPUTime.current() {
                sampledRenderCPU += after - before
                sampledAttempts += 1
            }
        }
        return cadence.timeUntilNextTick(now: now, period: period)
    }

    func draw(in context: DrawContext) {
        // The picture is drawn on ticks; a draw request (resize, overlay closed) repaints it.
        let now = clock()
        let coreStatus = session.thread.currentStatus
        status.rebuild(coreStatus, session: session, input: session.input, now: now)
        render(context: context, coreStatus: coreStatus, now: now)
    }

    /// Draws (paced: only if the link has room). Returns false when the frame was skipped.
    @discardableResult
    private func render(context: DrawContext, coreStatus: CoreThread.Status, now: ContinuousClock.Instant,
                        paced: Bool = false) -> Bool {
        let columns = context.columns
        let rows = context.rows
        let layout = currentLayout(columns: columns, rows: rows)
        let screenCells = layout.screens.map(\.cells)
        if screenCells != loggedScreenCells {
            loggedScreenCells = screenCells
            for (index, cells) in screenCells.enumerated() { Log.info("layout: screen \(index) at cells \(cells)") }
        }
        let tooSmall = layout.isTooSmall || context.terminal.isTooSmall
        session.setPaused(tooSmall, for: .terminalTooSmall)
        updateTouchScreen(layout)
        let content = PlayPicture.Content(
            frame: session.lastFrame, layout: layout, skin: skin, aspectRatio: coreStatus.avInfo?.aspectRatio,
            legend: legendEntries(for: layout), status: status.text, statusRight: session.notice?.text ?? "",
            tooSmallMessage: tooSmall
                ? "Terminal too small: \(columns)x\(rows), this skin needs \(max(layout.requiredColumns, TerminalLimits.minimumColumns))x\(max(layout.requiredRows, TerminalLimits.minimumRows))"
                : nil)
        // A busy link (LinkPacer: its cursor-position probes are unanswered) skips the frame.
        guard let bytes = paced ? picture.renderPaced(content, columns: columns, rows: rows, now: now)
                                : picture.renderUnpaced(content, columns: columns, rows: rows, now: now,
                                                        countsOnLink: !session.isHeldByMenu) else { return false }
        let writeStart = clock()
        picture.recycle(context.writeRaw(bytes))
        // A write that waited for the link hides when the answers that came meanwhile arrived.
        if clock() - writeStart > LinkPacer.waitingWrite { picture.pacer.outputWaited(since: writeStart) }
        if let pixels = picture.pixels, pixels.lastPayloadBytes > 0 {
            pixelLink.recordPicture(bytes: pixels.lastPayloadBytes, deliveryRate: picture.pacer.deliveryRate)
            if pixelLink.shouldFallBack {
                pixelsTooSlow = true
                session.notify("the link is too slow for pixels (over 100 ms a picture): half blocks", now: now)
            }
        }
        if picture.pixels != nil { updateTouchScreen(layout) }
        return true
    }

    func currentLayout(columns: Int, rows: Int) -> SkinLayout {
        let statusRows = session.statusBarVisible ? 1 : 0
        // The frame's size lets the legend and border give way for a whole scale (sharp pixels).
        let pictureSize = session.lastFrame.map { FrameSize(width: $0.width, height: $0.height) }
        let key = LayoutInputs(columns: columns, rows: rows, statusRows: statusRows, pictureSize: pictureSize,
                               dsLayout: session.system == .nds ? session.dsLayout : nil)
        if let cachedLayout, cachedLayout.inputs == key { return cachedLayout.layout }
        let layout: SkinLayout
        if let dsLayout = key.dsLayout {
            layout = skin.layout(terminalColumns: columns, rows: rows, statusBarRows: statusRows, dsLayout: dsLayout,
                                 pictureSize: pictureSize)
        } else {
            layout = skin.layout(terminalColumns: columns, rows: rows, statusBarRows: statusRows, pictureSize: pictureSize)
        }
        cachedLayout = (key, layout)
        return layout
    }

    /// Everything `currentLayout` depends on besides the skin, which never changes here.
    private struct LayoutInputs: Equatable {
        var columns: Int
        var rows: Int
        var statusRows: Int
        var pictureSize: FrameSize?
        var dsLayout: DSScreenLayout?
    }

    /// The last layout and its inputs: working it out again at every frame was 1.3% of the UI
    /// thread's time in play (perf), and the inputs change only on a resize, the status bar's
    /// toggle, a DS layout switch or a new frame size.
    private var cachedLayout: (inputs: LayoutInputs, layout: SkinLayout)?

    private func updateTouchScreen(_ layout: SkinLayout) {
        guard session.system == .nds else { return }
        // The touch screen is the one whose source is the bottom half of the DS frame.
        guard let index = layout.screens.firstIndex(where: { ($0.source?.y ?? 0) > 0 }) else {
            session.input.touchScreen = nil
            return
        }
        // In pixel mode the picture covers exactly its placement's cells.
        session.input.touchScreen = picture.pixels?.placement(ofScreen: index)?.cells ?? layout.screens[index].cells
        // Pixel mouse reports (mode 1016) map through the picture's own pixels.
        var touchPixels: TouchPixels?
        if let pixels = picture.pixels {
            touchPixels = pixels.touchPixels(ofScreen: index)
        } else if let cell = services.graphics.cellSize, let drawn = picture.halfBlockScreens[index] {
            touchPixels = TouchPixels(halfBlockPicture: drawn.picture, cell: cell,
                                      pictureWidth: drawn.source.width, pictureHeight: drawn.source.height)
        }
        if let touchPixels, touchPixels != session.input.touchPixels {
            // One line per move (tests and bug reports read where a click should land).
            Log.info("touch screen: terminal pixels \(touchPixels.area) showing \(touchPixels.pictureWidth)x\(touchPixels.pictureHeight)")
        }
        session.input.touchPixels = touchPixels
    }

    private func legendEntries(for layout: SkinLayout) -> [(label: String, keys: [String])] {
        // `session.input` is the session's one `PlayerInput`: its revision alone says the map changed.
        let revision = session.input.keyMapRevision
        if let cache = legendCache, cache.legend == layout.legend, cache.keyMapRevision == revision { return cache.entries }
        let entries = buildLegendEntries(for: layout)
        legendCache = (layout.legend, revision, entries)
        return entries
    }

    private func buildLegendEntries(for layout: SkinLayout) -> [(label: String, keys: [String])] {
        guard let legend = layout.legend else { return [] }
        let buttons = legend.buttons.map { button in
            let keys = session.input.keyMap.keys(for: .button(port: 0, button)).map(\.name)
            return (session.system.label(for: button), Array(keys.prefix(2)))
        }
        // A console with a stick (the N64): one line per stick, its four keys up, down, left, right.
        let sticks: [(label: String, keys: [String])] = session.system.hasAnalogStick ? AnalogStick.allCases.map { stick in
            let directions = StickDirection.allCases.filter { $0.stick == stick }
            let keys = directions.compactMap { session.input.keyMap.keys(for: .stick(port: 0, $0)).first }
            let arrows: [Key: String] = [.up: "↑", .down: "↓", .left: "←", .right: "→"]
            return (session.system == .n64 ? (stick == .left ? "Stick" : "C") : stick.name,
                    [keys.map { arrows[$0] ?? $0.name }.joined()])
        } : []
        // The pause menu's keys too: Esc alone fails under GNU screen, so the second one must be findable.
        let menuKeys = session.input.keyMap.keys(for: .action(.pauseMenu)).map(\.name)
        return menuKeys.isEmpty ? buttons + sticks : buttons + sticks + [("Menu", Array(menuKeys.prefix(2)))]
    }

    func notify(_ message: String) { session.notify(message, now: clock()) }

    // MARK: Closing and suspending

    func close() {
        guard !closed else { return }
        closed = true
        hidePixels()
        terminal.write(picture.releasePalette())
        picture.pixels?.removeLeftoverFiles()
        session.close(now: clock())
        logThreadCPU()
    }

    /// One log line with where the CPU went (Bench/peer/compare.py reads it): the core thread's
    /// time (emulation, frame copies, pacing) and the UI thread's (input, picture, terminal),
    /// the latter including start-up and the browser if it ran first; of that, drawing's share
    /// (estimated from every 8th frame); and how long a frame waited in the mailbox on average.
    private func logThreadCPU() {
        let coreStatus = session.thread.currentStatus
        guard let core = coreStatus.threadCPU, let ui = try? ThreadCPUTime.current() else { return }
        Log.info("cpu: frames=\(coreStatus.frameCount) core-thread=\(String(format: "%.4f", core.inSeconds)) "
                 + "ui-thread=\(String(format: "%.4f", ui.inSeconds)) drawn=\(renderCount) "
                 + "drawing=\(String(format: "%.4f", estimatedDrawingCPU.inSeconds)) "
                 + "frame-wait-ms=\(String(format: "%.2f", framesTaken == 0 ? 0 : (frameWaits / framesTaken).inSeconds * 1000))")
    }

    /// The sampled attempts' CPU scaled to all of them.
    private var estimatedDrawingCPU: Duration {
        sampledAttempts == 0 ? .zero : sampledRenderCPU / sampledAttempts * renderAttempts
    }

    func willSuspend() {
        hidePixels()
        session.setPaused(true, for: .suspended)
    }

    func didResume() {
        session.setPaused(false, for: .suspended)
        picture.paletteWasRestored()
        showPixels()
    }
}
