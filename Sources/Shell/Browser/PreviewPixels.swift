import PhosphorKit
import Render
import Terminal

/// The browser's preview picture (box art, a state's screenshot) in real pixels, over the cells
/// of the preview pane that ncurses leaves blank. ncurses knows nothing of it, so it is written
/// after ncurses has flushed (`LibraryScreen.drawOverText`):
///
/// - kitty: one image of our own id, placed at the pane's cells; a new picture replaces it in
///   place, and it is deleted when a dialog or menu covers the browser, when a game starts, and
///   when the browser closes (kitty images sit above text and would hide the menu).
/// - sixel: drawn after the update; before a different picture (or none) goes there, ncurses is
///   told to repaint the old picture's cells, so no pixels of the last game are left behind.
///
/// UI thread only.
final class PreviewPixels {
    /// The kitty image id of the preview (apart from the play screen's 7100…).
    static let imageID = 7_200

    private let writer: PixelPictureWriter
    var output: VideoOutput { writer.output }
    /// What the next `bytes` should show (set by the pane while it is drawn).
    private var wanted: (image: PNGImage, key: String, target: CellRect)?
    /// What is on screen now: the picture's key and where it was placed.
    private var shown: (key: String, placement: PixelPlacement)?

    init(output: VideoOutput, passthrough: Bool = false, pane: TmuxPane? = nil) {
        writer = PixelPictureWriter(output: output, passthrough: passthrough, pane: pane)
    }

    /// Where a picture of `width` x `height` goes in `target`, keeping its shape (sixel at a whole
    /// multiple where one fits, since it draws nearest neighbour).
    func placement(width: Int, height: Int, in target: CellRect) -> PixelPlacement {
        PixelPlacement(pictureWidth: width, height: height, into: target, cell: writer.cellSize,
                       aspectRatio: Double(width) / Double(max(height, 1)), integerScale: writer.isSixel)
    }

    /// The pane will show `image` (named by `key`) in `target`; nil: no picture this time.
    /// Returns the cells of a sixel that must go (ncurses should repaint them in this update).
    func want(_ image: PNGImage?, key: String, in target: CellRect) -> CellRect? {
        wanted = image.map { ($0, key, target) }
        guard writer.isSixel, let shown else { return nil }
        let next = image.map { placement(width: $0.width, height: $0.height, in: target) }
        if shown.key == key, shown.placement == next { return nil }
        self.shown = nil
        return shown.placement.cells
    }

    /// The bytes that bring the screen up to date with the last `want` (none when unchanged),
    /// or take the picture down when `covered`.
    func bytes(covered: Bool) -> [UInt8] {
        guard !covered, let wanted else { return hide() }
        let placement = placement(width: wanted.image.width, height: wanted.image.height, in: wanted.target)
        if let shown, shown.key == wanted.key, shown.placement == placement { return [] }
        // Kitty: the same ids replace the last picture in place (no delete first, no flicker).
        var bytes: [UInt8] = []
        // The terminal scales kitty images itself, but a large box art needn't cross the link at
        // full size: shrunk to the pixels it is shown at.
        var image = PixelImage(wanted.image)
        if image.width > placement.pixelWidth || image.height > placement.pixelHeight {
            image = image.resampled(width: placement.pixelWidth, height: placement.pixelHeight)
        }
        writer.draw(image, placement: placement, imageID: Self.imageID, into: &bytes)
        Log.info("preview pixels: \(output.name) at cells \(placement.cells) as \(placement.pixelWidth)x\(placement.pixelHeight) px")
        shown = (wanted.key, placement)
        return bytes
    }

    /// Takes the picture down. Kitty: deleted. A sixel is left for the text over it to cover;
    /// its cells are repainted before the next picture goes there (`want`).
    func hide() -> [UInt8] {
        guard shown != nil else { return [] }
        if writer.isSixel {
            shown?.key = ""
            return []
        }
        shown = nil
        return writer.delete(imageID: Self.imageID)
    }

    /// The next `bytes` draws the picture again (ncurses repainted the screen, which may have
    /// erased it: kitty deletes images on a clear).
    func invalidate() { shown?.key = "" }

    func removeLeftoverFiles() { writer.removeLeftoverFiles() }
}
