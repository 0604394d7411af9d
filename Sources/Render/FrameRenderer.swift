import PhosphorKit

/// The one object the play view needs: a terminal-sized canvas that a frame is composed on,
/// and the encoder that sends only what changed.
///
/// Per displayed frame, on the UI thread:
/// ```
/// renderer.beginFrame(columns: cols, rows: rows)
/// renderer.draw(frame, from: topScreen, into: leftHalf, options: options)   // one or more
/// renderer.canvas.put(text: "P1", column: 0, row: 0, foreground: .white, background: .black)
/// bytes.removeAll(keepingCapacity: true)
/// renderer.encodeChanges(into: &bytes)      // zero bytes when nothing changed
/// ```
/// A new terminal size redraws everything; so does `invalidate()` (overlay closed, Ctrl-L).
public final class FrameRenderer {
    /// `@exclusivity(unchecked)`: `put` runs per legend and status cell (300 a frame), and the
    /// runtime's dynamic check on each cost more than the put. UI thread only.
    @exclusivity(unchecked) public private(set) var canvas = CellCanvas(columns: 0, rows: 0)
    public let downsampler = Downsampler()
    public let encoder: TerminalEncoder

    public init(colorMode: ColorMode, synchronizedOutput: Bool) {
        encoder = TerminalEncoder(colorMode: colorMode, synchronizedOutput: synchronizedOutput)
    }

    public var colorMode: ColorMode {
        get { encoder.colorMode }
        set { encoder.colorMode = newValue }
    }

    public var synchronizedOutput: Bool {
        get { encoder.synchronizedOutput }
        set { encoder.synchronizedOutput = newValue }
    }

    /// Starts a frame on a canvas of the terminal's size, cleared to `background`.
    public func beginFrame(columns: Int, rows: Int, background: RGBColor = .black) {
        canvas.reset(columns: columns, rows: rows, background: background)
    }

    /// Draws `sourceRect` of `frame` into `target`, fitted per `options`. Returns the layout used.
    @discardableResult
    public func draw(_ frame: FrameSource, from sourceRect: PixelRect, into target: CellRect,
                     options: ScalingOptions = ScalingOptions()) -> PictureLayout {
        downsampler.draw(frame, from: sourceRect, into: target, on: &canvas, options: options)
    }

    /// Fills cells with a solid colour (borders, panels).
    public func fill(_ rect: CellRect, with color: RGBColor) {
        canvas.fill(rect, with: color)
    }

    /// Puts one text or picture cell; outside the canvas is ignored.
    public func put(_ cell: Cell, column: Int, row: Int) {
        canvas.put(cell, column: column, row: row)
    }

    /// Writes single-width text from (column, row), clipped at the edge.
    @discardableResult
    public func put(text: String, column: Int, row: Int, foreground: RGBColor, background: RGBColor) -> Int {
        canvas.put(text: text, column: column, row: row, foreground: foreground, background: background)
    }

    /// Direct access to this frame's canvas for anything the helpers above don't cover
    /// (e.g. `blend` to dim the picture behind a menu, `setPixel` for a touch cursor).
    public func withCanvas<Result>(_ body: (inout CellCanvas) throws -> Result) rethrows -> Result {
        try body(&canvas)
    }

    /// Appends the escape bytes that bring the terminal to this frame's canvas; returns how many.
    @discardableResult
    public func encodeChanges(into output: inout [UInt8]) -> Int {
        encoder.encode(canvas, into: &output)
    }

    /// The next `encodeChanges` redraws every cell.
    public func invalidate() {
        encoder.invalidate()
    }
}
