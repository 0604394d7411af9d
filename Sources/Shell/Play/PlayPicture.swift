import Input
import PhosphorKit
import Render
import Terminal

/// Draws the play screen (game picture(s) placed by the skin, borders, key legend, status bar)
/// through the render module and returns the bytes that update the terminal. UI thread only.
final class PlayPicture {
    let renderer: FrameRenderer
    var integerScale: Bool
    private var lastSize = (columns: 0, rows: 0)
    /// Real pixels for the game screens (kitty graphics or sixel); nil: half blocks.
    var pixels: PlayPixelLayer?
    /// A menu is over the picture: the pixel images are down and the screens are half blocks
    /// underneath it (kitty images would sit above the menu's text).
    var pixelsHidden = false
    private var drawsPixels: Bool { pixels != nil && !pixelsHidden }
    /// Where each screen's half-block picture was last drawn (canvas pixels) and the frame
    /// region it shows: the DS touch screen maps pixel mouse reports through this.
    private(set) var halfBlockScreens: [Int: (picture: PixelRect, source: PixelRect)] = [:]

    /// Holds frames back while the link to the terminal is busy (see `LinkPacer`).
    var pacer: LinkPacer
    /// The colour mode asked for; the encoder may use fewer colours while the link is too slow.
    private var requestedColorMode: ColorMode
    /// Palette entries the picture may redefine (nil: the terminal reported none).
    private let paletteSlots: PaletteSlots?

    /// - Parameter synchronizedOutput: wrap frames in mode 2026 (only where the terminal said it knows it).
    /// - Parameter repeatsCharacters: the terminal has REP (`CSI n b`; terminfo `rep`).
    /// - Parameter pacing: hold frames back on a slow link (off only to compare, in `make bench`).
    /// - Parameter editsLines: the terminal has DCH and ICH (terminfo `dch`, `ich`): scrolled rows are shifted.
    /// - Parameter fullBlockFillsCell: the terminal's `█` covers the cell (not xterm's: `TerminalQuirks`).
    /// - Parameter shiftedRowsWaitForTheServer: each DCH and ICH makes the terminal wait for its
    ///   display server (xterm's: `TerminalQuirks`): only whole scrolls are shifted.
    /// - Parameter palette: the entries the terminal reported, which the picture may redefine.
    init(colorMode: ColorMode, integerScale: Bool, synchronizedOutput: Bool, repeatsCharacters: Bool = false,
         editsLines: Bool = false, fullBlockFillsCell: Bool = true, shiftedRowsWaitForTheServer: Bool = false,
         pacing: Bool = true, palette: TerminalPalette = TerminalPalette()) {
        renderer = FrameRenderer(colorMode: colorMode, synchronizedOutput: synchronizedOutput)
        let entries = palette.redefinableEntries
        paletteSlots = entries.isEmpty ? nil : PaletteSlots(indices: entries, restoreBytes: palette.restoreBytes)
        renderer.encoder.paletteSlots = paletteSlots
        renderer.encoder.repeatsCharacters = repeatsCharacters
        renderer.encoder.shiftsRows = editsLines
        renderer.encoder.fullBlockFillsCell = fullBlockFillsCell
        renderer.encoder.shiftsOnlyWholeScrolls = shiftedRowsWaitForTheServer
        self.integerScale = integerScale
        requestedColorMode = colorMode
        pacer = LinkPacer(isEnabled: pacing)
    }

    var colorMode: ColorMode {
        get { requestedColorMode }
        set {
            requestedColorMode = newValue
            applyColorMode()
        }
    }

    /// Colour drops to 256, then 16 colours while the pacer says the link cannot carry it.
    private func applyColorMode() {
        var effective = requestedColorMode
        switch pacer.colorReduction {
        case .none: break
        case .palette256: if effective == .trueColor { effective = .palette256 }
        case .palette16: effective = .palette16
        }
        if renderer.colorMode != effective {
            renderer.colorMode = effective
            renderer.invalidate()
        }
    }

    /// Renders if the link has room for a frame: the bytes (probe included) to write, or nil when
    /// the frame is skipped. An empty result means nothing changed.
    func renderPaced(_ content: Content, columns: Int, rows: Int, now: ContinuousClock.Instant) -> [UInt8]? {
        guard pacer.mayWriteFrame(now: now) else {
            pacer.didSkipFrame(now: now)
            return nil
        }
        applyColorMode()
        // Rows planned for the fewest bytes, and every shift tried, cost a third of drawing
        // (`phosphor-bench render`): worth it where the link is the limit, not where it takes
        // every byte at once.
        let bytesAreCheap = pacer.bytesAreCheap
        renderer.encoder.plansRows = !bytesAreCheap
        renderer.encoder.triesLastShiftFirst = bytesAreCheap
        return accounted(render(content, columns: columns, rows: rows), now: now)
    }

    /// Renders whether or not the link has room (a repaint: a resize, the first picture, a menu
    /// closed). Where `countsOnLink`, its bytes still go to the pacer with a probe: bytes it did
    /// not know of, queued ahead of its next probe, made that answer's trip look long (a whole
    /// first picture at 100 KB/s: 400 ms, taken for the round trip). Not while a menu covers the
    /// game: the menu takes the answers then.
    func renderUnpaced(_ content: Content, columns: Int, rows: Int, now: ContinuousClock.Instant,
                       countsOnLink: Bool) -> [UInt8] {
        let bytes = render(content, columns: columns, rows: rows)
        return countsOnLink ? accounted(bytes, now: now) : bytes
    }

    /// A frame's bytes with the probe the pacer wants, counted as written.
    private func accounted(_ frame: [UInt8], now: ContinuousClock.Instant) -> [UInt8] {
        guard !frame.isEmpty else { return frame }
        var bytes = frame
        if pacer.wantsProbe { bytes += LinkPacer.probe }
        pacer.didWriteFrame(bytes: bytes.count, now: now)
        return bytes
    }

    /// The buffer of a frame written, handed back (`recycle`) so the next frame appends into its
    /// capacity instead of growing a new array from nothing. UI thread.
    private var spareBytes: [UInt8] = []
    /// Enough for a busy frame of a scrolling game at 170x80 (~15 KB, `make bench` 4).
    private static let initialByteCapacity = 64 << 10

    /// Takes back the bytes of a frame after they were written (`DrawContext.writeRaw` returns them).
    func recycle(_ bytes: consuming [UInt8]) {
        spareBytes = bytes
        spareBytes.removeAll(keepingCapacity: true)
    }

    /// Stops redefining palette entries, before a menu draws with the palette (its save-state
    /// previews use any entry) or the game ends: the bytes that redraw the last picture in plain
    /// colour and then give the entries back. Empty when none was in use.
    func releasePalette() -> [UInt8] {
        guard renderer.encoder.paletteSlots != nil else { return [] }
        renderer.encoder.paletteSlots = nil
        var bytes: [UInt8] = []
        renderer.encodeChanges(into: &bytes)
        return bytes
    }

    /// The picture may redefine the entries again (the menu closed).
    func resumePalette() {
        renderer.encoder.paletteSlots = paletteSlots
    }

    /// The session gave the entries back itself (its suspend sequence): they are free again.
    func paletteWasRestored() {
        renderer.encoder.paletteWasRestored()
        renderer.invalidate()
    }

    /// Next encode repaints every cell (after an overlay closed, a resize, Ctrl-L).
    func invalidate() {
        renderer.invalidate()
        pixels?.invalidate()
    }

    struct Content {
        var frame: VideoFrame?
        var layout: SkinLayout
        var skin: Skin
        var aspectRatio: Double?
        /// Each button with the names of its keys (the first two bound).
        var legend: [(label: String, keys: [String])]
        var status: StatusText
        var statusRight: String
        var tooSmallMessage: String?
    }

    /// Renders everything and returns the terminal bytes of what changed.
    func render(_ content: Content, columns: Int, rows: Int) -> [UInt8] {
        if lastSize != (columns, rows) {
            lastSize = (columns, rows)
            renderer.invalidate()
        }
        let background = RGBColor(rawValue: content.skin.background.rgb)
        let surroundings = content.tooSmallMessage == nil ? Surroundings(content, columns: columns, rows: rows, drawsScreens: content.frame != nil && !drawsPixels) : nil
        let keepsSurroundings = surroundings != nil && surroundings == keptSurroundings
            && keptLegend.elementsEqual(content.legend, by: { $0.label == $1.label && $0.keys == $1.keys })
        if !keepsSurroundings {
            renderer.beginFrame(columns: columns, rows: rows, background: background)
        }
        if let message = content.tooSmallMessage {
            // The window is small by definition: one clause per line, cut to the width (text that
            // doesn't fit is not drawn at all).
            let lines = (message.components(separatedBy: ", ") + ["(the game is paused)"]).map { String($0.prefix(columns)) }
            let row = max(0, rows / 2 - 1)
            for (offset, line) in lines.enumerated() {
                let column = max(0, (columns - line.count) / 2)
                _ = renderer.put(text: line, column: column, row: row + offset, foreground: RGBColor(rawValue: 0xFFFFFF),
                                 background: background)
            }
        } else {
            // The screens fill their cells themselves; the borders and the legend are around them.
            if let frame = content.frame, !drawsPixels { drawScreens(frame, content) }
            if !keepsSurroundings {
                drawBorders(content)
                drawLegend(content)
            }
        }
        keptSurroundings = surroundings
        keptLegend = surroundings == nil ? [] : content.legend
        drawStatus(content, columns: columns)
        var output: [UInt8] = []
        swap(&output, &spareBytes)
        if output.capacity == 0 { output.reserveCapacity(PlayPicture.initialByteCapacity) }
        _ = renderer.encodeChanges(into: &output)
        // The caller resets SGR and moves the cursor back for ncurses after these bytes.
        renderer.encoder.forgetTerminalState()
        if let pixels, !pixelsHidden {
            // Pixels go over the (empty) cells the text layer left for the screens.
            if content.tooSmallMessage == nil, let frame = content.frame {
                output += pixels.render(frame, screens: pixelScreens(frame, content), integerScale: integerScale, terminalRows: rows)
            } else {
                output += pixels.hide()
            }
        }
        return output
    }

    /// What the cells around the screens were drawn from: the canvas's size, the layout, the
    /// skin's colours, whether the screens are drawn (the legend's entries are kept beside it). While they stay the same the
    /// canvas keeps those cells from one frame to the next, and only the screens and the status
    /// bar are drawn again: clearing every cell and drawing the legend's text and the borders
    /// each frame was 6 % of drawing a frame at 120x50 (perf of a play run).
    private struct Surroundings: Equatable {
        var columns: Int
        var rows: Int
        var layout: SkinLayout
        var background: SkinColor
        var border: SkinBorder
        var legendStyle: SkinLegend?
        /// The screens' cells are drawn over every frame only when the text layer shows a picture
        /// (with pixels, or before the first frame, they are left clear).
        var drawsScreens: Bool

        init(_ content: Content, columns: Int, rows: Int, drawsScreens: Bool) {
            self.columns = columns
            self.rows = rows
            self.drawsScreens = drawsScreens
            layout = content.layout
            background = content.skin.background
            border = content.skin.border
            legendStyle = content.skin.legend
        }
    }

    /// The surroundings the canvas holds (nil: none; the next frame clears it first).
    private var keptSurroundings: Surroundings?
    private var keptLegend: [(label: String, keys: [String])] = []

    private func drawScreens(_ frame: VideoFrame, _ content: Content) {
        frame.pixels.withUnsafeBytes { bytes in
            guard let source = try? FrameSource(bytes: bytes, width: frame.width, height: frame.height,
                                                pitch: frame.pitch, format: frame.format) else { return }
            for (index, screen) in content.layout.screens.enumerated() {
                // Skins describe the DS frame at 256x384; scale if the core sends another size.
                let region = screen.source.map { region in
                    content.skin.frame.map { region.scaled(from: $0, to: FrameSize(width: frame.width, height: frame.height)) } ?? region
                }
                let pixels = region ?? PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
                let target = screen.cells
                // The core's aspect ratio describes the whole frame; a DS screen is square-pixelled.
                let aspect = region == nil ? content.aspectRatio : nil
                let drawn = renderer.draw(source, from: pixels, into: target,
                                          options: ScalingOptions(aspectRatio: aspect, integerScaling: integerScale,
                                                                  barColor: RGBColor(rawValue: content.skin.background.rgb)))
                halfBlockScreens[index] = (drawn.picture, pixels.intersection(source.bounds))
            }
        }
    }

    /// The skin's screens for the pixel layer, with the same regions `drawScreens` uses.
    private func pixelScreens(_ frame: VideoFrame, _ content: Content) -> [PlayPixelLayer.Screen] {
        content.layout.screens.map { screen in
            let region = screen.source.map { region in
                content.skin.frame.map { region.scaled(from: $0, to: FrameSize(width: frame.width, height: frame.height)) } ?? region
            }
            return PlayPixelLayer.Screen(source: region ?? PixelRect(x: 0, y: 0, width: frame.width, height: frame.height),
                                         cells: screen.cells, aspectRatio: region == nil ? content.aspectRatio : nil)
        }
    }

    private func drawBorders(_ content: Content) {
        guard content.skin.border.style != .none else { return }
        let color = RGBColor(rawValue: content.skin.border.color.rgb)
        let background = RGBColor(rawValue: content.skin.background.rgb)
        let glyphs = BorderGlyphs(style: content.skin.border.style)
        for box in content.layout.borders where box.columns >= 2 && box.rows >= 2 {
            func put(_ scalar: Unicode.Scalar, _ column: Int, _ row: Int) {
                renderer.put(Cell(scalar, foreground: color, background: background), column: column, row: row)
            }
            for column in box.x + 1..<box.maxX - 1 {
                put(glyphs.horizontal, column, box.y)
                put(glyphs.horizontal, column, box.maxY - 1)
            }
            for row in box.y + 1..<box.maxY - 1 {
                put(glyphs.vertical, box.x, row)
                put(glyphs.vertical, box.maxX - 1, row)
            }
            put(glyphs.topLeft, box.x, box.y)
            put(glyphs.topRight, box.maxX - 1, box.y)
            put(glyphs.bottomLeft, box.x, box.maxY - 1)
            put(glyphs.bottomRight, box.maxX - 1, box.maxY - 1)
        }
    }

    private func drawLegend(_ content: Content) {
        guard let legend = content.layout.legend, let style = content.skin.legend else { return }
        let background = RGBColor(rawValue: content.skin.background.rgb)
        let text = RGBColor(rawValue: style.textColor.rgb)
        let keys = RGBColor(rawValue: style.keyColor.rgb)
        for piece in legendPieces(legend, entries: content.legend) {
            _ = renderer.put(text: piece.text, column: piece.column, row: piece.row,
                             foreground: piece.isKey ? keys : text, background: background)
        }
    }

    /// One string of the legend where it goes: a button's label, or its keys.
    private struct LegendPiece {
        var text: String
        var column: Int
        var row: Int
        var isKey: Bool
    }

    /// The legend's pieces as last laid out, and what from: they change only with the layout or
    /// the key map, and laying them out counts characters and joins strings.
    private var legendLayout: (legend: SkinLayout.Legend, entries: [(label: String, keys: [String])], pieces: [LegendPiece])?

    private func legendPieces(_ legend: SkinLayout.Legend, entries: [(label: String, keys: [String])]) -> [LegendPiece] {
        if let cached = legendLayout, cached.legend == legend,
           cached.entries.elementsEqual(entries, by: { $0.label == $1.label && $0.keys == $1.keys }) {
            return cached.pieces
        }
        var pieces: [LegendPiece] = []
        var row = legend.box.y
        var column = legend.box.x
        for entry in entries {
            if legend.position == .bottom {
                let keyText = entry.keys.joined(separator: "/")
                let width = entry.label.count + keyText.count + 3
                if column + width > legend.box.maxX { column = legend.box.x; row += 1 }
                guard row < legend.box.maxY else { break }
                pieces.append(LegendPiece(text: keyText, column: column, row: row, isKey: true))
                column += keyText.unicodeScalars.count
                let label = " " + entry.label + "  "
                pieces.append(LegendPiece(text: label, column: column, row: row, isKey: false))
                column += label.unicodeScalars.count
            } else {
                guard row < legend.box.maxY else { break }
                let width = legend.box.columns
                let room = max(0, width - entry.label.count - 1)
                // Both keys when they fit, else the first one whole ("rshift", not "rshift/ba").
                let both = entry.keys.joined(separator: "/")
                let keyText = both.count <= room ? both : String((entry.keys.first ?? "").prefix(room))
                pieces.append(LegendPiece(text: String(entry.label.prefix(width)), column: column, row: row, isKey: false))
                let keyColumn = legend.box.maxX - keyText.count
                if keyColumn > column + entry.label.count {
                    pieces.append(LegendPiece(text: keyText, column: keyColumn, row: row, isKey: true))
                }
                row += 1
            }
        }
        legendLayout = (legend, entries, pieces)
        return pieces
    }

    private func drawStatus(_ content: Content, columns: Int) {
        let bar = content.layout.statusBar
        guard !bar.isEmpty else { return }
        let background = RGBColor(rawValue: 0x202830)
        let foreground = RGBColor(rawValue: 0xD0D8E0)
        renderer.fill(CellRect(x: bar.x, y: bar.y, columns: bar.columns, rows: bar.rows), with: background)
        let fitted = fittedStatus(content.status, notice: content.statusRight, columns: bar.columns)
        _ = renderer.put(text: fitted.status, column: bar.x, row: bar.y, foreground: foreground, background: background)
        guard !fitted.notice.isEmpty else { return }
        _ = renderer.put(text: fitted.notice, column: bar.maxX - fitted.noticeWidth - 1, row: bar.y,
                         foreground: RGBColor(rawValue: 0x80C0FF), background: background)
    }

    /// The status bar's texts as last fitted, and what they were fitted from: the status changes
    /// about once a second, and fitting counts characters and splits strings.
    private var statusFit: (status: StatusText, notice: String, columns: Int, fitted: FittedStatus)?

    private struct FittedStatus {
        var status: String
        var notice: String
        var noticeWidth: Int
    }

    /// The status always shows; a notice gets what is left on the right. A long notice (an
    /// error) gets more room: the status drops its least important parts (`StatusText`) down to
    /// the essential ones, then the notice is cut.
    private func fittedStatus(_ text: StatusText, notice: String, columns: Int) -> FittedStatus {
        if let fit = statusFit, fit.status == text, fit.notice == notice, fit.columns == columns { return fit.fitted }
        // A space before the status; three columns between it and the notice, one after that.
        let statusText = text.fitted(width: notice.isEmpty ? columns - 1 : columns - notice.count - 4)
        let status = " " + String(statusText.prefix(max(0, columns - 1)))
        let room = columns - status.unicodeScalars.count - 3
        var shown = ""
        if room > 0, !notice.isEmpty {
            shown = notice.count > room ? String(notice.prefix(room - 1)) + "…" : notice
        }
        let fitted = FittedStatus(status: status, notice: shown, noticeWidth: shown.count)
        statusFit = (text, notice, columns, fitted)
        return fitted
    }
}

/// Box-drawing characters for a skin's border style.
struct BorderGlyphs {
    var horizontal: Unicode.Scalar
    var vertical: Unicode.Scalar
    var topLeft: Unicode.Scalar
    var topRight: Unicode.Scalar
    var bottomLeft: Unicode.Scalar
    var bottomRight: Unicode.Scalar

    init(style: BorderStyle) {
        switch style {
        case .double: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("═", "║", "╔", "╗", "╚", "╝")
        case .rounded: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("─", "│", "╭", "╮", "╰", "╯")
        case .heavy: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("━", "┃", "┏", "┓", "┗", "┛")
        default: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("─", "│", "┌", "┐", "└", "┘")
        }
    }
}
