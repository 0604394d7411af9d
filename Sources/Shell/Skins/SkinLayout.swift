import PhosphorKit

/// Where everything goes for one terminal size: the result of `Skin.layout`.
public struct SkinLayout: Sendable, Equatable {
    /// One placed screen: the part of the frame it shows and the cells to fit it into.
    public struct Screen: Sendable, Equatable {
        public var name: String
        /// Part of the core frame (nil: the whole frame).
        public var source: PixelRect?
        /// The renderer fits the picture inside these cells, keeping its aspect ratio.
        public var cells: CellRect
        public var alignment: ScreenAlignment
    }

    /// The legend's box and what goes in it.
    public struct Legend: Sendable, Equatable {
        public var box: CellRect
        public var position: LegendPosition
        public var buttons: [JoypadButton]
    }

    /// The arrangement used (e.g. `stacked`).
    public var arrangement: String
    /// Empty when the terminal is too small.
    public var screens: [Screen]
    /// Outer boxes of the borders (one per screen; the border line runs along the box's edge and the
    /// screen sits inside it). Empty for border style `none` or when a screen is too small for one.
    public var borders: [CellRect]
    /// Nil when the skin has no legend or there is no room for it.
    public var legend: Legend?
    /// The whole game area (terminal minus status bar), to fill with the skin's background.
    public var gameArea: CellRect
    /// The status bar rows at the bottom of the terminal (empty when `statusBarRows` is 0).
    public var statusBar: CellRect
    /// True when the terminal is smaller than the skin's minimum; the screen should say
    /// "terminal too small: need `requiredColumns`×`requiredRows`".
    public var isTooSmall: Bool
    /// Smallest terminal size (status bar included) this skin can be drawn in.
    public var requiredColumns: Int
    public var requiredRows: Int

    /// A scale at least this fraction of the next whole one makes the legend and border give way.
    static let nearWholeScale = 0.8

    /// Which of the skin's extras a layout keeps.
    struct Chrome {
        var legend: Bool
        var border: Bool
        static let all = Chrome(legend: true, border: true)
        static let borderOnly = Chrome(legend: false, border: true)
        static let legendOnly = Chrome(legend: true, border: false)
        static let none = Chrome(legend: false, border: false)
    }

    /// The smallest scale any screen's picture gets (square pixels, two pixels per cell row):
    /// the exact fit, or with `wholeOnly` the largest whole scale that fits. A screen's source
    /// is in the skin's frame coordinates; `pictureSize` is the frame the core sends.
    static func smallestScale(of layout: SkinLayout, pictureSize: FrameSize, skinFrame: FrameSize?,
                              wholeOnly: Bool = false) -> Double {
        var smallest = Double.infinity
        for screen in layout.screens {
            var width = Double(pictureSize.width), height = Double(pictureSize.height)
            if let source = screen.source {
                let reference = skinFrame ?? pictureSize
                width = Double(source.width) * Double(pictureSize.width) / Double(max(1, reference.width))
                height = Double(source.height) * Double(pictureSize.height) / Double(max(1, reference.height))
            }
            guard width > 0, height > 0 else { continue }
            let fit = min(Double(screen.cells.columns) / width, Double(screen.cells.rows * 2) / height)
            smallest = min(smallest, wholeOnly ? fit.rounded(.down) : fit)
        }
        return smallest.isFinite ? smallest : 0
    }
}

extension Skin {
    /// Splits a terminal of `terminalColumns`×`rows` cells: the bottom `statusBarRows` rows are the
    /// status bar, the rest is the game area; the legend takes a strip of it when the remaining
    /// area still meets `minimumSize`; the picture area is shared between the arrangement's screens
    /// and each screen gets a border box when its style is not `none`.
    ///
    /// Pixel art stays sharp: when `pictureSize` (the core's frame, else the skin's `frame`) would
    /// be drawn at a fraction just below a whole scale (0.8–1 of it, e.g. 0.94× at 170×80), the
    /// legend and then the border give way (where the skin lets them) if that makes the whole
    /// scale fit: a GBC frame 1:1 instead of blended at 0.94×, which also costs fewer bytes.
    ///
    /// `arrangement` picks a layout by name (nil: the first); `shownScreen` is the screen index a
    /// `single` arrangement shows. Pure function, any thread.
    public func layout(terminalColumns: Int, rows: Int, statusBarRows: Int,
                       arrangement name: String? = nil, shownScreen: Int = 0, pictureSize: FrameSize? = nil) -> SkinLayout {
        let full = layout(terminalColumns: terminalColumns, rows: rows, statusBarRows: statusBarRows,
                          arrangement: name, shownScreen: shownScreen, chrome: .all)
        guard let size = pictureSize ?? frame, !full.isTooSmall, !full.screens.isEmpty else { return full }
        let scale = SkinLayout.smallestScale(of: full, pictureSize: size, skinFrame: frame)
        let whole = scale.rounded(.up)
        guard scale > 0, whole > scale, scale / whole >= SkinLayout.nearWholeScale else { return full }
        var candidates: [SkinLayout.Chrome] = []
        if legend?.givesWay ?? false, full.legend != nil { candidates.append(.borderOnly) }
        if border.givesWay, !full.borders.isEmpty {
            candidates.append((legend?.givesWay ?? true) ? .none : .legendOnly)
        }
        for chrome in candidates {
            let trial = layout(terminalColumns: terminalColumns, rows: rows, statusBarRows: statusBarRows,
                               arrangement: name, shownScreen: shownScreen, chrome: chrome)
            if SkinLayout.smallestScale(of: trial, pictureSize: size, skinFrame: frame, wholeOnly: true) >= whole { return trial }
        }
        return full
    }

    private func layout(terminalColumns: Int, rows: Int, statusBarRows: Int,
                        arrangement name: String?, shownScreen: Int, chrome: SkinLayout.Chrome) -> SkinLayout {
        let chosen = arrangement(named: name)
        let statusRows = max(0, min(statusBarRows, rows))
        let gameArea = CellRect(x: 0, y: 0, columns: max(0, terminalColumns), rows: max(0, rows - statusRows))
        let statusBar = CellRect(x: 0, y: rows - statusRows, columns: max(0, terminalColumns), rows: statusRows)
        var result = SkinLayout(arrangement: chosen.name, screens: [], borders: [], legend: nil,
                                gameArea: gameArea, statusBar: statusBar, isTooSmall: false,
                                requiredColumns: minimumSize.columns, requiredRows: minimumSize.rows + max(0, statusBarRows))
        guard gameArea.columns >= minimumSize.columns, gameArea.rows >= minimumSize.rows else {
            result.isTooSmall = true
            return result
        }

        var pictureArea = gameArea
        if chrome.legend, let legend, let split = split(pictureArea, for: legend) {
            pictureArea = split.picture
            result.legend = SkinLayout.Legend(box: split.legend, position: legend.position, buttons: legend.buttons)
        }

        for (screen, part) in divide(pictureArea, among: chosen, shownScreen: shownScreen) {
            var cells = part
            if chrome.border, border.style != .none, part.columns >= 3, part.rows >= 3 {
                result.borders.append(part)
                cells = part.inset(by: 1)
            }
            result.screens.append(SkinLayout.Screen(name: screen.name, source: screen.source, cells: cells,
                                                    alignment: screen.alignment))
        }
        return result
    }

    /// Convenience for the DS: the arrangement and shown screen a `DSScreenLayout` stands for.
    public func layout(terminalColumns: Int, rows: Int, statusBarRows: Int, dsLayout: DSScreenLayout,
                       pictureSize: FrameSize? = nil) -> SkinLayout {
        layout(terminalColumns: terminalColumns, rows: rows, statusBarRows: statusBarRows,
               arrangement: dsLayout.arrangementName, shownScreen: dsLayout.shownScreen, pictureSize: pictureSize)
    }

    /// The legend strip (with one blank cell between it and the picture), or nil when the picture
    /// would fall below the skin's minimum size.
    private func split(_ area: CellRect, for legend: SkinLegend) -> (picture: CellRect, legend: CellRect)? {
        let taken = legend.size + 1
        switch legend.position {
        case .left, .right:
            guard area.columns - taken >= minimumSize.columns else { return nil }
            let picture = CellRect(x: legend.position == .left ? area.x + taken : area.x, y: area.y,
                                  columns: area.columns - taken, rows: area.rows)
            let box = CellRect(x: legend.position == .left ? area.x : area.maxX - legend.size, y: area.y,
                              columns: legend.size, rows: area.rows)
            return (picture, box)
        case .bottom:
            guard area.rows - taken >= minimumSize.rows else { return nil }
            let picture = CellRect(x: area.x, y: area.y, columns: area.columns, rows: area.rows - taken)
            let box = CellRect(x: area.x, y: area.maxY - legend.size, columns: area.columns, rows: legend.size)
            return (picture, box)
        }
    }

    /// Shares `area` between the screens, in proportion to their source sizes along the
    /// arrangement's direction, with `gap` empty cells between neighbours.
    private func divide(_ area: CellRect, among arrangement: SkinArrangement,
                        shownScreen: Int) -> [(SkinScreen, CellRect)] {
        let screens = arrangement.screens
        guard !screens.isEmpty else { return [] }
        switch arrangement.direction {
        case .single:
            let index = ((shownScreen % screens.count) + screens.count) % screens.count
            return [(screens[index], area)]
        case .vertical, .horizontal:
            let vertical = arrangement.direction == .vertical
            let weights = screens.map { screen in
                max(1, vertical ? (screen.source?.height ?? 1) : (screen.source?.width ?? 1))
            }
            let totalWeight = weights.reduce(0, +)
            let length = vertical ? area.rows : area.columns
            let gaps = min(arrangement.gap * (screens.count - 1), max(0, length - screens.count))
            let available = max(0, length - gaps)
            var parts: [(SkinScreen, CellRect)] = []
            var offset = 0
            var handedOut = 0
            for (index, screen) in screens.enumerated() {
                let isLast = index == screens.count - 1
                let share = isLast ? available - handedOut : available * weights[index] / totalWeight
                let box = vertical
                    ? CellRect(x: area.x, y: area.y + offset, columns: area.columns, rows: share)
                    : CellRect(x: area.x + offset, y: area.y, columns: share, rows: area.rows)
                parts.append((screen, box))
                handedOut += share
                offset += share
                if !isLast { offset += gaps / (screens.count - 1) + (index < gaps % (screens.count - 1) ? 1 : 0) }
            }
            return parts
        }
    }
}
