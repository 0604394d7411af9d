/// Draws a rectangle of a frame into a rectangle of canvas cells: pixel-format conversion,
/// aspect-correct fitting, area-average downsampling (or exact integer scaling), bars.
///
/// Keeps its scratch buffers and weight tables between frames, so a frame at an unchanged
/// size allocates nothing. Not thread-safe: one instance per rendering thread (the UI thread).
public final class Downsampler {
    private var weightCache: [AxisKey: AxisWeights] = [:]
    /// One decoded source row (0x00RRGGBB).
    private var rowBuffer: [UInt32] = []
    /// Horizontal-pass results, one plane per channel: `sourceRows × outputWidth`, in 1/65536 units.
    private var red: [UInt32] = []
    private var green: [UInt32] = []
    private var blue: [UInt32] = []
    /// Vertical-pass accumulators for one output row.
    private var accumulator: [Int] = []

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
        } else {
            drawAveraged(frame, source: source, at: layout.picture, on: &canvas)
        }
        return layout
    }

    private func weights(source: Int, output: Int) -> AxisWeights {
        let key = AxisKey(source: source, output: output)
        if let cached = weightCache[key] { return cached }
        if weightCache.count > 16 { weightCache.removeAll() }
        let made = AxisWeights(sourceLength: source, outputLength: output)
        weightCache[key] = made
        return made
    }

    private func ensureRowBuffer(_ count: Int) {
        if rowBuffer.count < count { rowBuffer = [UInt32](repeating: 0, count: count) }
    }

    /// Exact replication: every source pixel becomes a `scale`×`scale` block of half-block pixels.
    private func drawReplicated(_ frame: FrameSource, source: PixelRect, at picture: PixelRect, scale: Int, on canvas: inout CellCanvas) {
        ensureRowBuffer(source.width)
        let columns = canvas.columns
        let bytesPerPixel = frame.format.bytesPerPixel
        rowBuffer.withUnsafeMutableBufferPointer { row in
            canvas.cells.withUnsafeMutableBufferPointer { cells in
                for sourceY in 0..<source.height {
                    frame.format.decodeRow(frame.bytes, offset: (source.y + sourceY) * frame.pitch + source.x * bytesPerPixel,
                                           count: source.width, into: row.baseAddress!)
                    for repeatY in 0..<scale {
                        let y = picture.y + sourceY * scale + repeatY
                        var index = (y >> 1) * columns + picture.x
                        let isTop = y & 1 == 0
                        for sourceX in 0..<source.width {
                            let color = RGBColor(rawValue: row[sourceX])
                            for _ in 0..<scale {
                                Downsampler.store(color, isTop: isTop, in: &cells[index])
                                index &+= 1
                            }
                        }
                    }
                }
            }
        }
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
    private func drawAveraged(_ frame: FrameSource, source: PixelRect, at picture: PixelRect, on canvas: inout CellCanvas) {
        let horizontal = weights(source: source.width, output: picture.width)
        let vertical = weights(source: source.height, output: picture.height)
        let outputWidth = picture.width
        let planeSize = outputWidth * source.height
        if red.count < planeSize {
            red = [UInt32](repeating: 0, count: planeSize)
            green = red
            blue = red
        }
        if accumulator.count < outputWidth * 3 { accumulator = [Int](repeating: 0, count: outputWidth * 3) }
        ensureRowBuffer(source.width)
        let bytesPerPixel = frame.format.bytesPerPixel

        // Horizontal pass.
        rowBuffer.withUnsafeMutableBufferPointer { row in
            red.withUnsafeMutableBufferPointer { redPlane in
            green.withUnsafeMutableBufferPointer { greenPlane in
            blue.withUnsafeMutableBufferPointer { bluePlane in
            horizontal.tapStart.withUnsafeBufferPointer { starts in
            horizontal.tapSource.withUnsafeBufferPointer { sources in
            horizontal.tapWeight.withUnsafeBufferPointer { weights in
                for sourceY in 0..<source.height {
                    frame.format.decodeRow(frame.bytes, offset: (source.y + sourceY) * frame.pitch + source.x * bytesPerPixel,
                                           count: source.width, into: row.baseAddress!)
                    let base = sourceY * outputWidth
                    for x in 0..<outputWidth {
                        var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                        for tap in Int(starts[x])..<Int(starts[x + 1]) {
                            let pixel = row[Int(sources[tap])]
                            let weight = UInt32(bitPattern: weights[tap])
                            r &+= ((pixel >> 16) & 0xFF) &* weight
                            g &+= ((pixel >> 8) & 0xFF) &* weight
                            b &+= (pixel & 0xFF) &* weight
                        }
                        redPlane[base + x] = r
                        greenPlane[base + x] = g
                        bluePlane[base + x] = b
                    }
                }
            }}}}}}
        }

        // Vertical pass, straight into the canvas.
        let columns = canvas.columns
        let rounding = 1 << (2 * AxisWeights.shift - 1)
        let shift = 2 * AxisWeights.shift
        canvas.cells.withUnsafeMutableBufferPointer { cells in
        accumulator.withUnsafeMutableBufferPointer { sums in
        red.withUnsafeBufferPointer { redPlane in
        green.withUnsafeBufferPointer { greenPlane in
        blue.withUnsafeBufferPointer { bluePlane in
        vertical.tapStart.withUnsafeBufferPointer { starts in
        vertical.tapSource.withUnsafeBufferPointer { sources in
        vertical.tapWeight.withUnsafeBufferPointer { weights in
            for outputY in 0..<picture.height {
                for i in 0..<(outputWidth * 3) { sums[i] = rounding }
                for tap in Int(starts[outputY])..<Int(starts[outputY + 1]) {
                    let base = Int(sources[tap]) * outputWidth
                    let weight = Int(weights[tap])
                    var s = 0
                    for x in 0..<outputWidth {
                        sums[s] &+= Int(redPlane[base + x]) &* weight
                        sums[s + 1] &+= Int(greenPlane[base + x]) &* weight
                        sums[s + 2] &+= Int(bluePlane[base + x]) &* weight
                        s &+= 3
                    }
                }
                let y = picture.y + outputY
                let isTop = y & 1 == 0
                var index = (y >> 1) * columns + picture.x
                var s = 0
                for _ in 0..<outputWidth {
                    let r = UInt32(min(255, sums[s] >> shift))
                    let g = UInt32(min(255, sums[s + 1] >> shift))
                    let b = UInt32(min(255, sums[s + 2] >> shift))
                    Downsampler.store(RGBColor(rawValue: r << 16 | g << 8 | b), isTop: isTop, in: &cells[index])
                    index &+= 1
                    s &+= 3
                }
            }
        }}}}}}}}
    }
}
