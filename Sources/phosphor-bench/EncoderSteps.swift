import Foundation
import PhosphorKit
import Render

/// `phosphor-bench encoder-steps`: the bytes per frame of consecutive game frames as each of
/// the encoder's choices is switched on in turn, so each step's saving is measured on its own:
/// changed cells with `▀` and spaces only, then `▄`/`█`, exact palette indices, REP, DCH/ICH
/// row shifts, then what xterm pays for its short `█` and what choosing each cell's form on its
/// own costs; and at a downscaled size, snapping to the frame's colours off and on.
struct EncoderSteps {
    struct Step {
        var name: String
        var configure: (TerminalEncoder) -> Void
        var snaps = true
    }

    static var steps: [Step] { [
        Step(name: "changed cells only: `▀`, spaces, 24-bit SGR halves") { encoder in
            encoder.choosesCheaperGlyphs = false
            encoder.usesExactPaletteIndices = false
        },
        Step(name: "+ `▄` / `█` where they save a colour change") { encoder in
            encoder.usesExactPaletteIndices = false
        },
        Step(name: "+ exact xterm palette entries as `38;5;n`") { _ in },
        Step(name: "+ REP for runs (terminfo `rep`)") { encoder in
            encoder.repeatsCharacters = true
        },
        Step(name: "+ DCH/ICH row shifts (terminfo `dch`, `ich`)") { encoder in
            encoder.repeatsCharacters = true
            encoder.shiftsRows = true
        },
    ] }

    /// What xterm alone pays on top of every step: a one-colour cell is always a space in its
    /// colour, never a `█` over another background (xterm's Xft `█` leaves the cell's edges open).
    static var xtermStep: Step {
        Step(name: "xterm only: + one-colour cells as spaces, no `█` (`TerminalQuirks.fullBlockFillsCell`)") { encoder in
            encoder.repeatsCharacters = true
            encoder.shiftsRows = true
            encoder.fullBlockFillsCell = false
        }
    }

    /// What a terminal that takes every byte at once gets (`LinkPacer.bytesAreCheap`): every step
    /// on, but each cell's form chosen on its own rather than planned for the whole row, and a
    /// row's last shift taken again when it gains enough.
    static var cellByCellStep: Step {
        Step(name: "all steps, each cell's form chosen alone, the last shift tried first (a link that takes every byte at once)") { encoder in
            encoder.repeatsCharacters = true
            encoder.shiftsRows = true
            encoder.plansRows = false
            encoder.triesLastShiftFirst = true
        }
    }

    /// Average bytes per frame after the first (the steady state), and distinct colours drawn.
    static func measure(_ frames: [RawFrameFile], columns: Int, rows: Int, step: Step,
                        colorMode: ColorMode = .trueColor) throws -> (bytes: Double, colors: Int) {
        let renderer = FrameRenderer(colorMode: colorMode, synchronizedOutput: false)
        step.configure(renderer.encoder)
        var output: [UInt8] = []
        var total = 0
        var colors = Set<RGBColor>()
        let target = CellRect(x: 0, y: 0, columns: columns, rows: rows)
        for (index, frame) in frames.enumerated() {
            output.removeAll(keepingCapacity: true)
            renderer.beginFrame(columns: columns, rows: rows)
            try frame.pixels.withUnsafeBytes { raw in
                let source = try FrameSource(bytes: raw, width: frame.width, height: frame.height, pitch: frame.width * 4, format: .xrgb8888)
                renderer.draw(source, from: source.bounds, into: target, options: ScalingOptions(snapsToFrameColors: step.snaps))
            }
            let bytes = renderer.encodeChanges(into: &output)
            if index > 0 { total += bytes }
            if index > 0, let dump = ProcessInfo.processInfo.environment["PHOSPHOR_DUMP"], step.snaps, columns == 120 {
                if let handle = FileHandle(forWritingAtPath: dump) { handle.seekToEndOfFile(); handle.write(Data(output)); handle.closeFile() }
                else { FileManager.default.createFile(atPath: dump, contents: Data(output)) }
            }
            if index == frames.count - 1 {
                for cell in renderer.canvas.cells { colors.insert(cell.foreground); colors.insert(cell.background) }
            }
        }
        return (Double(total) / Double(max(1, frames.count - 1)), colors.count)
    }

    /// Prints the Markdown table for one frame directory at 1:1 and at a downscaled size.
    static func run(_ arguments: [String]) throws {
        guard let path = arguments.first else { throw UsageError(description: "encoder-steps needs a frame directory") }
        let frames = try RawFrameFile.loadDirectory(URL(fileURLWithPath: path))
        guard let first = frames.first else { throw UsageError(description: "\(path): no frames") }
        let columns = first.width, rows = (first.height + 1) / 2
        print("| step | bytes/frame at \(columns)×\(rows) (1:1) | vs the first |")
        print("|---|--:|--:|")
        var baseline = 0.0
        for step in steps + [xtermStep, cellByCellStep] {
            let bytes = try measure(frames, columns: columns, rows: rows, step: step).bytes
            if baseline == 0 { baseline = bytes }
            print("| \(step.name) | \(Int(bytes)) | \(String(format: "%.2f", bytes / baseline)) |")
        }
        // Downscaled (0.75x): averaging blends neighbours unless snapped back to the frame's colours.
        let small = (columns: columns * 3 / 4, rows: rows * 3 / 4)
        print("")
        print("| at \(small.columns)×\(small.rows) (0.75×), all steps on | bytes/frame | distinct colours drawn |")
        print("|---|--:|--:|")
        for snaps in [false, true] {
            var step = steps[steps.count - 1]
            step.snaps = snaps
            let result = try measure(frames, columns: small.columns, rows: small.rows, step: step)
            print("| area average\(snaps ? ", snapped to the frame's colours" : "") | \(Int(result.bytes)) | \(result.colors) |")
        }
        // The same with 256 colours (`TERM=xterm-256color` without `COLORTERM`), and xterm's rule.
        print("")
        print("| all steps on, 256 colours | bytes/frame at \(columns)×\(rows) | at \(small.columns)×\(small.rows), snapped |")
        print("|---|--:|--:|")
        for step in [steps[steps.count - 1], xtermStep] {
            let full = try measure(frames, columns: columns, rows: rows, step: step, colorMode: .palette256).bytes
            let scaled = try measure(frames, columns: small.columns, rows: small.rows, step: step, colorMode: .palette256).bytes
            print("| \(step.name == xtermStep.name ? "xterm (no `█`)" : "other terminals") | \(Int(full)) | \(Int(scaled)) |")
        }
    }
}
