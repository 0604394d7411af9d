import PhosphorKit
import Render
import Terminal

/// Writes one picture in real pixels at a placement: a kitty image (replacing any earlier image
/// under the same id in place) or a sixel image. Shared by the play screen's pixel layer and the
/// browser's preview pane. UI thread only (it may own the kitty frame file).
struct PixelPictureWriter {
    let output: VideoOutput
    /// Kitty on the terminal's own machine: pictures go as temporary files (no base64).
    private let frameFile: KittyFrameFile?
    /// Kitty over any link: one deflate stream for every frame (nil if zlib could not make one:
    /// then each frame gets its own).
    private let deflater: ZlibDeflater?
    /// Inside tmux: every kitty command (and the cursor move before it) goes wrapped in tmux's
    /// passthrough. The cursor move is then the outer terminal's, so it is moved by the pane's
    /// offset (`TmuxPane`: a split pane, a status line at the top).
    private let passthrough: Bool
    private let pane: TmuxPane?

    init(output: VideoOutput, passthrough: Bool = false, pane: TmuxPane? = nil) {
        self.output = output
        self.passthrough = passthrough
        self.pane = pane
        if case .kitty(files: true, _) = output { frameFile = KittyFrameFile() } else { frameFile = nil }
        if case .kitty = output { deflater = try? ZlibDeflater(level: 1) } else { deflater = nil }
    }

    /// The cell size the placement's shape is worked out with; without an answer, cells are
    /// taken as twice as tall as wide (nearly every terminal font).
    var cellSize: CellPixelSize {
        switch output {
        case .sixel(_, let cell): return cell
        case .kitty(_, let cell?): return cell
        default: return CellPixelSize(width: 8, height: 16)
        }
    }

    var isSixel: Bool {
        if case .sixel = output { return true }
        return false
    }

    /// Appends the bytes that show `image` at `placement` (kitty: as image `imageID`, placement 1).
    func draw(_ image: PixelImage, placement: PixelPlacement, imageID: Int, into bytes: inout [UInt8]) {
        switch output {
        case .blocks:
            return
        case .kitty:
            var transport = KittyGraphicsEncoder.Transport.direct(compressed: true)
            if let frameFile, let path = frameFile.write(image.rgb) { transport = .temporaryFile(path: path) }
            var command: [UInt8] = []
            var cells = placement.cells
            if passthrough, let origin = pane?.origin {
                cells.x += origin.column
                cells.y += origin.row
            }
            try? KittyGraphicsEncoder.place(image, imageID: imageID, placementID: 1,
                                            cells: cells, transport: transport, deflater: deflater, into: &command)
            bytes += passthrough ? TmuxPassthrough.wrapEach(command) : command
        case .sixel(let registers, _):
            var picture = image
            var scale = placement.pixelWidth / max(image.width, 1)
            if scale < 1 || placement.pixelWidth % max(image.width, 1) != 0 {
                // Not a whole multiple (a window too small, or a stretched aspect): resample once.
                picture = image.resampled(width: placement.pixelWidth, height: placement.pixelHeight)
                scale = 1
            }
            bytes += Array("\u{1B}[\(placement.cells.y + 1);\(placement.cells.x + 1)H".utf8)
            SixelEncoder.encode(picture, scale: scale, registers: registers, into: &bytes)
        }
    }

    /// Takes kitty image `imageID` down (a sixel is simply drawn over by text).
    func delete(imageID: Int) -> [UInt8] {
        guard case .kitty = output else { return [] }
        let command = KittyGraphicsEncoder.delete(imageID: imageID)
        return passthrough ? TmuxPassthrough.wrap(command) : command
    }

    /// Frame files the terminal never read are removed.
    func removeLeftoverFiles() { frameFile?.removeLeftovers() }
}
