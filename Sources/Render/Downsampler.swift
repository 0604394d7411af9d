import PhosphorKit

/// Draws a rectangle of a frame into a rectangle of canvas cells: pixel-format conversion,
/// aspect-correct fitting, exact integer scaling, nearest-neighbour down to half size, area
/// averaging (snapped to the frame's own colours when it has few) below that, bars.
///
/// Keeps its scratch buffers and weight tables between frames, so a frame at an unchanged
/// size allocates nothing. Not thread-safe: one instance per rendering thread (the UI thread).
public final class Downsampler {
    private var weightCache: [AxisKey: AxisWeights] = [:]
    /// One decoded source row (0x00RRGGBB).
    private var rowBuffer = ScratchBuffer<UInt32>()
    /// Nearest-neighbour sampling's source column per output column.
    private var columnMap = ScratchBuffer<Int32>()
    /// Horizontal-pass results, one plane per channel: `sourceRows × outputWidth`, in 1/65536 units.
    private var red = ScratchBuffer<UInt32>()
    private var green = ScratchBuffer<UInt32>()
    private var blue = ScratchBuffer<UInt32>()
    /// Vertical-pass accumulators for one output row (r, g, b interleaved).
    private var accumulator = ScratchBuffer<Int>()
    /// The source's own colours, to snap blended pixels back to (see `ScalingOptions.snapsToFrameColors`).
    /// These three are `@exclusivity(unchecked)`: passed `inout` once per row, the runtime's
    /// check cost more than the row's work (one thread uses a `Downsampler`).
    @exclusivity(unchecked) private var palette = FramePalette()
    /// The source's colours as masked raw pixel values, for nearest sampling's colour count.
    @exclusivity(unchecked) private var rawColors = DistinctValues(limit: FramePalette.limit)
    /// Table decoding for the last frame's pixel format (rebuilt when the format changes).
    @exclusivity(unchecked) private var decoder = PixelDecoder(format: .rgb565)

    private struct AxisKey: Hashable {
        let source: Int
        let output: Int
    }

    public init() {}

    /// Draws `sourceRect` of `frame` (clipped to the frame) into `target` (clipped to the canvas),
    /// filling the target's unused area with `options.barColor`. Returns where the picture went.
    @discardableResult
    public func draw(_ frame: FrameSource, from sourceRect: PixelRect, into target: CellRect,
                     on canvas: inout CellCanvas, options: ScalingOptions = ScalingOptions()) -> PictureLayout {
        let source = sourceRect.intersection(frame.bounds)
        let cells = target.intersection(canvas.bounds)
        canvas.fill(cells, with: options.barColor)
        let layout = PictureLayout.fit(sourceWidth: source.width, sourceHeight: source.height, into: cells, options: options)
        guard !layout.picture.isEmpty, !source.isEmpty else { return layout }
        if let scale = layout.integerScale {
            drawReplicated(frame, source: source, at: layout.picture, scale: scale, on: &canvas)
        } else if options.snapsToFrameColors, layout.picture.width * 2 >= source.width, layout.picture.height * 2 >= source.height,
                  drawsNearest(frame, source: source, at: layout.picture, on: &canvas) {
            // Pixel art down to half size (each output pixel covers under two source pixels a
            // side): the nearest one keeps edges hard and colours exact, at a fraction of the
            // averaging cost. Photos and 3D scenes (many colours) are averaged.
        } else {
            drawAveraged(frame, source: source, at: layout.picture, snapping: options.snapsToFrameColors, on: &canvas)
        }
        return layout
    }

    /// Frames between two colour counts of one placement: the frames in between reuse the last
    /// answer. Counting every shown pixel was 60 % of the downsampler's instructions on a
    /// downscaled scrolling game (perf annotate of `phosphor-bench render`), while a game moves
    /// between pixel art and a many-coloured scene at a cut, not every frame: the filter follows
    /// within `recountInterval - 1` frames (50 ms at 60 fps), and either filter draws any frame
    /// faithfully (nearest sampling sharper, averaging smoother).
    static let recountInterval = 4

    /// One placement's last count: whether its frames had few enough colours for nearest
    /// sampling, and how many more frames go by before the next count.
    private struct FilterChoice {
        let source: PixelRect
        let picture: PixelRect
        var nearest: Bool
        var framesUntilCount: Int
    }

    /// The placements drawn lately (a DS frame has two; a handful at most, so a list).
    private var filterChoices: [FilterChoice] = []

    /// Draws by nearest sampling when this placement's frames have few colours (counted on
    /// every `recountInterval`-th frame, the first one included); false (drawn partly or not at
    /// all) when they have too many and the caller must average.
    private func drawsNearest(_ frame: FrameSource, source: PixelRect, at picture: PixelRect, on canvas: inout CellCanvas) -> Bool {
        guard let index = filterChoices.firstIndex(where: { $0.source == source && $0.picture == picture }) else {
            if filterChoices.count >= 8 { filterChoices.removeFirst() }
            let nearest = drawNearest(frame, source: source, at: picture, countingColors: true, on: &canvas)
            filterChoices.append(FilterChoice(source: source, picture: picture, nearest: nearest,
                                              framesUntilCount: Downsampler.recountInterval - 1))
            return nearest
        }
        if filterChoices[index].framesUntilCount > 0 {
            filterChoices[index].framesUntilCount -= 1
            guard filterChoices[index].nearest else { return false }
            return drawNearest(frame, source: source, at: picture, countingColors: false, on: &canvas)
        }
        let nearest = drawNearest(frame, source: source, at: picture, countingColors: true, on: &canvas)
        filterChoices[index].nearest = nearest
        filterChoices[index].framesUntilCount = Downsampler.recountInterval - 1
        return nearest
    }

    private func weights(source: Int, output: Int) -> AxisWeights {
        let key = AxisKey(source: source, output: output)
        if let cached = weightCache[key] { return cached }
        if weightCache.count > 16 { weightCache.removeAll() }
        let made = AxisWeights(sourceLength: source, outputLength: output)
        weightCache[key] = made
        return made
    }

    /// Exact replication: every source pixel becomes a `scale`×`scale` block of half-block pixels
    /// (at 1:1 a straight copy of each decoded row into the cells' top or bottom halves).
    /// `draw` has just filled the target, so every cell here is already a `▀` cell.
    private func drawReplicated(_ frame: FrameSource, source: PixelRect, at picture: PixelRect, scale: Int, on canvas: inout CellCanvas) {
        let row = rowBuffer.pointer(capacity: source.width)
        let columns = canvas.columns
        let width = source.width
        let decoder = decoder(for: frame.format)
        canvas.cells.withUnsafeMutableBufferPointer { buffer in
            let cells = buffer.baseAddress!
            for sourceY in 0..<source.height {
                decoder.decode(Downsampler.rowStart(frame, source: source, row: sourceY), count: width, into: row)
                for repeatY in 0..<scale {
                    let y = picture.y + sourceY * scale + repeatY
                    let rowCells = cells + ((y >> 1) &* columns &+ picture.x)
                    Downsampler.storeRow(row, count: width, scale: scale, isTop: y & 1 == 0, into: rowCells)
                }
            }
        }
    }

    /// Writes `count` colours, each `scale` times, into the top (or bottom) halves of `cells`.
    @inline(__always)
    private static func storeRow(_ row: UnsafePointer<UInt32>, count: Int, scale: Int, isTop: Bool,
                                 into cells: UnsafeMutablePointer<Cell>) {
        if scale == 1 {
            if isTop {
                for x in 0..<count { cells[x].foreground = RGBColor(rawValue: row[x]) }
            } else {
                for x in 0..<count { cells[x].background = RGBColor(rawValue: row[x]) }
            }
            return
        }
        var index = 0
        for x in 0..<count {
            let color = RGBColor(rawValue: row[x])
            for _ in 0..<scale {
                if isTop { cells[index].foreground = color } else { cells[index].background = color }
                index &+= 1
            }
        }
    }

    /// Nearest-neighbour sampling (output pixel (x, y) shows the source pixel under its centre).
    /// `countingColors`: only if the rows it shows have at most `FramePalette.limit` colours;
    /// false, with the picture partly drawn, at the first row that has one more. One pass: each
    /// sampled source row's colours are counted on the raw pixel values (`PixelDecoder.noteColors`),
    /// and only the pixels the picture shows are decoded, once per source row, then copied to the
    /// output rows that sample it. `draw` has just filled the target, so every cell here is
    /// already a `▀` cell.
    private func drawNearest(_ frame: FrameSource, source: PixelRect, at picture: PixelRect, countingColors: Bool,
                             on canvas: inout CellCanvas) -> Bool {
        rawColors.reset()
        let decoder = decoder(for: frame.format)
        let row = rowBuffer.pointer(capacity: picture.width)
        let columns = canvas.columns
        // The source column of each output column, once per frame instead of a division per pixel.
        let sourceColumns = columnMap.pointer(capacity: picture.width)
        for outputX in 0..<picture.width {
            sourceColumns[outputX] = Int32(min(source.width - 1, (2 * outputX + 1) * source.width / (2 * picture.width)))
        }
        func sourceRow(ofOutputRow outputY: Int) -> Int {
            min(source.height - 1, (2 * outputY + 1) * source.height / (2 * picture.height))
        }
        var previous = UInt32.max
        var outputY = 0
        return canvas.cells.withUnsafeMutableBufferPointer { buffer in
            let cells = buffer.baseAddress!
            for sourceY in 0..<source.height {
                // Only the rows the picture shows are counted: they are all nearest sampling
                // draws, and a photo or 3D scene has its many colours in those rows too.
                guard outputY < picture.height && sourceRow(ofOutputRow: outputY) == sourceY else { continue }
                let start = Downsampler.rowStart(frame, source: source, row: sourceY)
                if countingColors {
                    decoder.noteColors(start, count: source.width, previous: &previous, in: &rawColors)
                    if rawColors.isOverLimit { return false }
                }
                let first = outputY
                while outputY < picture.height && sourceRow(ofOutputRow: outputY) == sourceY { outputY += 1 }
                if outputY - first == 1 {
                    // Shown on one output row (any downscale): decoded straight into its cells.
                    let y = picture.y + first
                    let rowCells = cells + ((y >> 1) &* columns &+ picture.x)
                    if y & 1 == 0 {
                        decoder.decode(start, columns: sourceColumns, count: picture.width) { rowCells[$0].foreground = RGBColor(rawValue: $1) }
                    } else {
                        decoder.decode(start, columns: sourceColumns, count: picture.width) { rowCells[$0].background = RGBColor(rawValue: $1) }
                    }
                    continue
                }
                decoder.decode(start, columns: sourceColumns, count: picture.width) { row[$0] = $1 }
                for y in (picture.y + first)..<(picture.y + outputY) {
                    let rowCells = cells + ((y >> 1) &* columns &+ picture.x)
                    if y & 1 == 0 {
                        for x in 0..<picture.width { rowCells[x].foreground = RGBColor(rawValue: row[x]) }
                    } else {
                        for x in 0..<picture.width { rowCells[x].background = RGBColor(rawValue: row[x]) }
                    }
                }
            }
            return true
        }
    }

    /// The first pixel of row `row` of `source` in `frame`.
    @inline(__always)
    private static func rowStart(_ frame: FrameSource, source: PixelRect, row: Int) -> UnsafeRawPointer {
        frame.bytes.baseAddress! + ((source.y &+ row) &* frame.pitch &+ source.x &* frame.format.bytesPerPixel)
    }

    /// The table decoder for `format`, kept while frames keep their format.
    private func decoder(for format: PixelFormat) -> PixelDecoder {
        if decoder.format != format { decoder = PixelDecoder(format: format) }
        return decoder
    }

    @inline(__always)
    private static func store(_ color: RGBColor, isTop: Bool, in cell: inout Cell) {
        if cell.character != Cell.upperHalfBlock {
            cell = Cell(top: cell.background, bottom: cell.background)
        }
        if isTop { cell.foreground = color } else { cell.background = color }
    }

    /// Separable box filter: a horizontal pass per source row into three channel planes, then a
    /// vertical pass per output row, with integer weights that sum exactly to 1 on each axis.
    /// With `snapping`, a source of at most `FramePalette.limit` colours has each result replaced
    /// by the nearest of its own colours (hard edges, no blends).
    private func drawAveraged(_ frame: FrameSource, source: PixelRect, at picture: PixelRect, snapping: Bool,
                              on canvas: inout CellCanvas) {
        palette.reset()
        let horizontal = weights(source: source.width, output: picture.width)
        let vertical = weights(source: source.height, output: picture.height)
        let outputWidth = picture.width
        let planeSize = outputWidth * source.height
        let redPlane = red.pointer(capacity: planeSize)
        let greenPlane = green.pointer(capacity: planeSize)
        let bluePlane = blue.pointer(capacity: planeSize)
        let sums = accumulator.pointer(capacity: outputWidth * 3)
        let row = rowBuffer.pointer(capacity: source.width)
        let decoder = decoder(for: frame.format)
        var previous = UInt32.max

        // Horizontal pass: per source row, weighted sums of the source pixels under each output column.
        let identityColumns = horizontal.isIdentity
        horizontal.withTaps { starts, sources, weights in
            for sourceY in 0..<source.height {
                decoder.decode(Downsampler.rowStart(frame, source: source, row: sourceY), count: source.width, into: row)
                let base = sourceY &* outputWidth
                let r = redPlane + base, g = greenPlane + base, b = bluePlane + base
                if snapping && !palette.isOverLimit {
                    // Only a change along the row can be a new colour.
                    for x in 0..<source.width where row[x] != previous {
                        previous = row[x]
                        palette.insert(previous)
                    }
                }
                if identityColumns {
                    for x in 0..<outputWidth {
                        let pixel = row[x]
                        r[x] = ((pixel >> 16) & 0xFF) << AxisWeights.shift
                        g[x] = ((pixel >> 8) & 0xFF) << AxisWeights.shift
                        b[x] = (pixel & 0xFF) << AxisWeights.shift
                    }
                    continue
                }
                for x in 0..<outputWidth {
                    var sumR: UInt32 = 0, sumG: UInt32 = 0, sumB: UInt32 = 0
                    var tap = Int(starts[x])
                    let end = Int(starts[x &+ 1])
                    while tap < end {
                        let pixel = row[Int(sources[tap])]
                        let weight = UInt32(bitPattern: weights[tap])
                        sumR &+= ((pixel >> 16) & 0xFF) &* weight
                        sumG &+= ((pixel >> 8) & 0xFF) &* weight
                        sumB &+= (pixel & 0xFF) &* weight
                        tap &+= 1
                    }
                    r[x] = sumR
                    g[x] = sumG
                    b[x] = sumB
                }
            }
        }

        // Vertical pass: per output row, weighted sums of the horizontal results, straight into the canvas.
        let columns = canvas.columns
        let snaps = snapping && !palette.isOverLimit && !palette.colors.isEmpty
        let rounding = 1 << (2 * AxisWeights.shift - 1)
        let shift = 2 * AxisWeights.shift
        canvas.cells.withUnsafeMutableBufferPointer { cellBuffer in
            let cells = cellBuffer.baseAddress!
            vertical.withTaps { starts, sources, weights in
                for outputY in 0..<picture.height {
                    let first = Int(starts[outputY]), end = Int(starts[outputY &+ 1])
                    let y = picture.y &+ outputY
                    let isTop = y & 1 == 0
                    let rowCells = cells + ((y >> 1) &* columns &+ picture.x)
                    if end - first == 1 && weights[first] == Int32(AxisWeights.one) {
                        // One source row exactly: no accumulation needed.
                        let base = Int(sources[first]) &* outputWidth
                        for x in 0..<outputWidth {
                            let r = (redPlane[base &+ x] &+ UInt32(AxisWeights.one >> 1)) >> UInt32(AxisWeights.shift)
                            let g = (greenPlane[base &+ x] &+ UInt32(AxisWeights.one >> 1)) >> UInt32(AxisWeights.shift)
                            let b = (bluePlane[base &+ x] &+ UInt32(AxisWeights.one >> 1)) >> UInt32(AxisWeights.shift)
                            let color = RGBColor(rawValue: min(255, r) << 16 | min(255, g) << 8 | min(255, b))
                            Downsampler.store(snaps ? palette.nearest(color) : color, isTop: isTop, in: &rowCells[x])
                        }
                        continue
                    }
                    for i in 0..<(outputWidth &* 3) { sums[i] = rounding }
                    for tap in first..<end {
                        let base = Int(sources[tap]) &* outputWidth
                        let weight = Int(weights[tap])
                        let r = redPlane + base, g = greenPlane + base, b = bluePlane + base
                        var s = sums
                        for x in 0..<outputWidth {
                            s[0] &+= Int(r[x]) &* weight
                            s[1] &+= Int(g[x]) &* weight
                            s[2] &+= Int(b[x]) &* weight
                            s += 3
                        }
                    }
                    var s = UnsafePointer(sums)
                    for x in 0..<outputWidth {
                        let r = UInt32(min(255, s[0] >> shift))
                        let g = UInt32(min(255, s[1] >> shift))
                        let b = UInt32(min(255, s[2] >> shift))
                        let color = RGBColor(rawValue: r << 16 | g << 8 | b)
                        Downsampler.store(snaps ? palette.nearest(color) : color, isTop: isTop, in: &rowCells[x])
                        s += 3
                    }
                }
            }
        }
    }
}
