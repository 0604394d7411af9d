import Input
import PhosphorKit
import Render
import Terminal

/// The game picture in real pixels, drawn over the text layer's cells: one kitty image per
/// screen (two for the DS), replaced in place each changed frame, or one sixel image per screen.
/// The text layer (`PlayPicture`) leaves the screens' cells empty in this mode; the status bar,
/// legend and menus stay text. UI thread only.
final class PlayPixelLayer {
    /// One screen of the skin, as this layer draws it.
    struct Screen: Equatable {
        var source: PixelRect
        var cells: CellRect
        var aspectRatio: Double?
    }

    var output: VideoOutput { writer.output }
    /// Kitty ids: screen n is image `firstImageID + n`, placement 1 (ids of our own range, so
    /// deleting them never touches another program's images).
    static let firstImageID = 7_100
    private let writer: PixelPictureWriter
    /// What each screen shows now: its placement and the frame it was drawn from.
    private var shown: [Int: (placement: PixelPlacement, sequence: UInt64, pictureWidth: Int, pictureHeight: Int)] = [:]
    private var lastFrame: VideoFrame?
    /// Bytes of pixel data in the last `render` (for the slow-link monitor and the bench).
    private(set) var lastPayloadBytes = 0

    init(output: VideoOutput, passthrough: Bool = false, pane: TmuxPane? = nil) {
        writer = PixelPictureWriter(output: output, passthrough: passthrough, pane: pane)
    }

    /// Where each screen's picture is on screen (the DS touch screen maps clicks through this).
    func placement(ofScreen index: Int) -> PixelPlacement? { shown[index]?.placement }

    /// Screen `index`'s picture in terminal pixels, for pixel mouse reports: kitty scales the
    /// image into exactly its placement's cells, a sixel is its own size from their corner.
    func touchPixels(ofScreen index: Int) -> TouchPixels? {
        guard let screen = shown[index] else { return nil }
        let cell = writer.cellSize
        let cells = screen.placement.cells
        let width = writer.isSixel ? screen.placement.pixelWidth : cells.columns * cell.width
        let height = writer.isSixel ? screen.placement.pixelHeight : cells.rows * cell.height
        return TouchPixels(area: PixelRect(x: cells.x * cell.width, y: cells.y * cell.height, width: width, height: height),
                           pictureWidth: screen.pictureWidth, pictureHeight: screen.pictureHeight)
    }

    /// The next `render` draws every screen again (the text layer repainted the cells under a
    /// sixel, or the images were hidden).
    func invalidate() { shown.removeAll() }

    /// The bytes that bring the pictures up to date with `frame` (none when nothing changed).
    /// `terminalRows`: a sixel must end above the last row, or the terminal scrolls.
    func render(_ frame: VideoFrame, screens: [Screen], integerScale: Bool, terminalRows: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        lastPayloadBytes = 0
        let samePicture = lastFrame.map(frame.hasSamePicture) ?? false
        lastFrame = frame
        // Screens that went away (a DS layout with one screen now): take their images down.
        for index in shown.keys.sorted() where index >= screens.count {
            bytes += writer.delete(imageID: Self.firstImageID + index)
            shown[index] = nil
        }
        frame.pixels.withUnsafeBytes { raw in
            guard let source = try? FrameSource(bytes: raw, width: frame.width, height: frame.height,
                                                pitch: frame.pitch, format: frame.format) else { return }
            for (index, screen) in screens.enumerated() {
                var target = screen.cells
                if case .sixel = output { target.rows = min(target.rows, terminalRows - 1 - target.y) }
                guard target.columns > 0, target.rows > 0 else { continue }
                let region = screen.source.intersection(source.bounds)
                // Sixel is drawn at whole multiples (nearest neighbour, every pixel the same size);
                // kitty scales in the terminal and may keep the core's aspect ratio.
                let placement = PixelPlacement(pictureWidth: region.width, height: region.height, into: target,
                                               cell: writer.cellSize, aspectRatio: screen.aspectRatio,
                                               integerScale: integerScale || writer.isSixel)
                if let current = shown[index], current.placement == placement, samePicture { continue }
                if shown[index]?.placement != placement {
                    // One line per new placement: where the picture is (tests and bug reports read it).
                    Log.info("pixels: \(output.name) screen \(index) at cells \(placement.cells) as \(placement.pixelWidth)x\(placement.pixelHeight) px")
                }
                let image = PixelImage(source, region: region)
                let before = bytes.count
                writer.draw(image, placement: placement, imageID: Self.firstImageID + index, into: &bytes)
                lastPayloadBytes += bytes.count - before
                shown[index] = (placement, frame.sequence, region.width, region.height)
            }
        }
        return bytes
    }

    /// Takes the pictures down (a menu over them, pause, quit): kitty images are deleted, since
    /// they sit above the text; a sixel is simply drawn over by the menu's text.
    func hide() -> [UInt8] {
        var bytes: [UInt8] = []
        for index in shown.keys.sorted() { bytes += writer.delete(imageID: Self.firstImageID + index) }
        shown.removeAll()
        return bytes
    }

    /// The game is over: frame files the terminal never read are removed.
    func removeLeftoverFiles() { writer.removeLeftoverFiles() }
}
