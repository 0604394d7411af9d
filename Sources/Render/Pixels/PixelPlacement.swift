import PhosphorKit

/// Where a picture goes in pixel mode: the cells it covers, centred in the skin's rectangle,
/// and the size in terminal pixels it is drawn at. Any thread (value type).
public struct PixelPlacement: Sendable, Equatable {
    /// The cells the picture covers (kitty scales the image into exactly these).
    public var cells: CellRect
    /// The picture's size on screen in terminal pixels (what the sixel encoder produces).
    public var pixelWidth: Int
    public var pixelHeight: Int

    public init(cells: CellRect, pixelWidth: Int, pixelHeight: Int) {
        self.cells = cells
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// Fits a `width` x `height` picture into `target` (cells of `cell` pixels). With
    /// `integerScale` (or square pixels, `aspectRatio` nil) the picture is a whole multiple of
    /// its size when at least one copy fits — every source pixel the same size, as sixel needs
    /// for nearest-neighbour scaling; otherwise it keeps `aspectRatio` (width / height as shown)
    /// and fills the rectangle.
    public init(pictureWidth width: Int, height: Int, into target: CellRect, cell: CellPixelSize,
                aspectRatio: Double?, integerScale: Bool) {
        let areaWidth = max(0, target.columns * cell.width)
        let areaHeight = max(0, target.rows * cell.height)
        let wholeScale = (width > 0 && height > 0) ? min(areaWidth / width, areaHeight / height) : 0
        if wholeScale >= 1 && (integerScale || aspectRatio == nil) {
            pixelWidth = width * wholeScale
            pixelHeight = height * wholeScale
        } else {
            let displayAspect = aspectRatio ?? (Double(width) / Double(max(height, 1)))
            pixelWidth = areaWidth
            pixelHeight = Int((Double(areaWidth) / displayAspect).rounded())
            if pixelHeight > areaHeight {
                pixelHeight = areaHeight
                pixelWidth = Int((Double(areaHeight) * displayAspect).rounded())
            }
        }
        pixelWidth = max(1, pixelWidth)
        pixelHeight = max(1, pixelHeight)
        let columns = max(1, min(target.columns, (pixelWidth + cell.width - 1) / max(cell.width, 1)))
        let rows = max(1, min(target.rows, (pixelHeight + cell.height - 1) / max(cell.height, 1)))
        cells = CellRect(x: target.x + (target.columns - columns) / 2, y: target.y + (target.rows - rows) / 2,
                         columns: columns, rows: rows)
    }
}
