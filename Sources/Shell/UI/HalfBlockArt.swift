import Foundation
import PhosphorKit
import Render
import Terminal

/// A small picture (a save-state preview) drawn as half blocks inside an ncurses window, in the
/// terminal's palette. Used where ncurses owns the screen (menus, the library's preview pane).
struct HalfBlockArt {
    private var canvas: CellCanvas

    /// Fits `image` into `columns`×`rows` cells, keeping its aspect ratio.
    init(image: PNGImage, columns: Int, rows: Int) {
        canvas = CellCanvas(columns: max(columns, 0), rows: max(rows, 0))
        var xrgb = [UInt32](repeating: 0, count: image.width * image.height)
        for i in xrgb.indices {
            xrgb[i] = UInt32(image.rgba[i * 4]) << 16 | UInt32(image.rgba[i * 4 + 1]) << 8 | UInt32(image.rgba[i * 4 + 2])
        }
        xrgb.withUnsafeBytes { bytes in
            guard let source = try? FrameSource(bytes: bytes, width: image.width, height: image.height,
                                                pitch: image.width * 4, format: .xrgb8888) else { return }
            Downsampler().draw(source, from: PixelRect(x: 0, y: 0, width: image.width, height: image.height),
                               into: canvas.bounds, on: &canvas)
        }
    }

    /// Loads a PNG file; nil when it is missing or not a PNG.
    init?(file: URL, columns: Int, rows: Int) {
        guard let data = try? Data(contentsOf: file), let image = try? PNGImage(decoding: [UInt8](data)) else { return nil }
        self.init(image: image, columns: columns, rows: rows)
    }

    func draw(in window: CursesWindow, row: Int, column: Int) {
        let wide = CursesWindow.paletteSize >= 256
        for y in 0..<canvas.rows {
            for x in 0..<canvas.columns {
                let cell = canvas[x, y]
                let top = wide ? PaletteMatcher.nearest256(cell.foreground) : PaletteMatcher.nearest16(cell.foreground)
                let bottom = wide ? PaletteMatcher.nearest256(cell.background) : PaletteMatcher.nearest16(cell.background)
                let glyph = cell.character == Cell.upperHalfBlock ? "▀" : " "
                window.put(glyph, row: row + y, column: column + x,
                           style: TextStyle(foreground: Int32(top), background: Int32(bottom)))
            }
        }
    }
}
