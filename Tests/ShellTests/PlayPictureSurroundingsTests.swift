import PhosphorKit
import Render
import Terminal
import XCTest
@testable import Shell

/// The play picture keeps the cells around the screens (borders, legend) between frames and
/// draws only the screens and the status bar again: every canvas must equal what a fresh
/// picture draws from the same content.
final class PlayPictureSurroundingsTests: XCTestCase {
    private let skin = BuiltInSkins.skin(for: .gbc)

    private func frame(shift: Int, colors: Int = 12) -> VideoFrame {
        var pixels = [UInt8](repeating: 0, count: 160 * 144 * 4)
        for y in 0..<144 {
            for x in 0..<160 {
                let index = ((x + shift) / 3 + y / 5) % colors
                let value = UInt32(0x10_2030 &* UInt32(index + 1)) & 0xFF_FFFF
                let offset = (y * 160 + x) * 4
                pixels[offset] = UInt8(value & 0xFF)
                pixels[offset + 1] = UInt8(value >> 8 & 0xFF)
                pixels[offset + 2] = UInt8(value >> 16 & 0xFF)
            }
        }
        return VideoFrame(width: 160, height: 144, format: .xrgb8888, pixels: pixels, sequence: UInt64(shift))
    }

    private func content(_ frame: VideoFrame?, columns: Int, rows: Int, legend: [(label: String, keys: [String])],
                         status: String) -> PlayPicture.Content {
        var text = StatusText()
        text.append(status, .essential)
        return PlayPicture.Content(frame: frame, layout: skin.layout(terminalColumns: columns, rows: rows, statusBarRows: 1),
                                   skin: skin, aspectRatio: nil, legend: legend, status: text, statusRight: "",
                                   tooSmallMessage: nil)
    }

    /// How many cells differ (every cell when the sizes differ).
    private func differingCells(_ a: [Cell], _ b: [Cell]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) }
        return zip(a, b).filter { $0 != $1 }.count
    }

    private func freshCanvas(_ content: PlayPicture.Content, columns: Int, rows: Int) -> [Cell] {
        let picture = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false)
        _ = picture.render(content, columns: columns, rows: rows)
        return picture.renderer.canvas.cells
    }

    func testARepaintCountsOnTheLinkUnlessAMenuTakesTheAnswers() {
        let probe = LinkPacer.probe
        let picture = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false)
        let now = ContinuousClock.now
        let first = picture.renderUnpaced(content(frame(shift: 0), columns: 120, rows: 50, legend: [], status: "GBC"),
                                          columns: 120, rows: 50, now: now, countsOnLink: true)
        // The pacer knows of the repaint's bytes, so its next answer is not taken for a later frame's.
        XCTAssertEqual(Array(first.suffix(probe.count)), probe)
        XCTAssertEqual(picture.pacer.framesInFlight, 1)
        XCTAssertEqual(picture.pacer.bytesInFlight, first.count)
        let covered = picture.renderUnpaced(content(frame(shift: 1), columns: 120, rows: 50, legend: [], status: "GBC"),
                                            columns: 120, rows: 50, now: now, countsOnLink: false)
        XCTAssertFalse(covered.isEmpty)
        XCTAssertNotEqual(Array(covered.suffix(probe.count)), probe, "under a menu: no probe")
        XCTAssertEqual(picture.pacer.framesInFlight, 1)
    }

    func testEveryFrameEqualsAFreshDrawingThroughLegendSizeAndFrameChanges() {
        let picture = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false)
        let legend: [(label: String, keys: [String])] = [("A", ["x"]), ("B", ["z"]), ("Start", ["Enter"])]
        let remapped: [(label: String, keys: [String])] = [("A", ["k"]), ("B", ["z"]), ("Start", ["Enter"])]
        let steps: [(frame: VideoFrame?, columns: Int, rows: Int, legend: [(label: String, keys: [String])], status: String)] = [
            (nil, 120, 50, legend, "GBC"),
            (frame(shift: 0), 120, 50, legend, "GBC · 60 fps"),
            (frame(shift: 1), 120, 50, legend, "GBC · 59 fps"),
            (frame(shift: 2), 120, 50, remapped, "GBC"),
            (frame(shift: 3), 120, 50, remapped, "GBC"),
            (frame(shift: 4), 100, 40, remapped, "GBC"),
            (frame(shift: 5), 100, 40, remapped, "a much longer status line than before"),
            (frame(shift: 6), 100, 40, remapped, "GBC"),
            (nil, 100, 40, remapped, "GBC"),
        ]
        var kept = 0
        for (index, step) in steps.enumerated() {
            let content = content(step.frame, columns: step.columns, rows: step.rows, legend: step.legend, status: step.status)
            _ = picture.render(content, columns: step.columns, rows: step.rows)
            XCTAssertEqual(differingCells(picture.renderer.canvas.cells, freshCanvas(content, columns: step.columns, rows: step.rows)),
                           0, "step \(index)")
            if index > 0 && steps[index - 1].legend.elementsEqual(step.legend, by: { $0.label == $1.label && $0.keys == $1.keys })
                && steps[index - 1].columns == step.columns && (steps[index - 1].frame == nil) == (step.frame == nil) {
                kept += 1
            }
        }
        XCTAssertGreaterThan(kept, 3, "most steps keep their surroundings")
    }

    /// Rows are planned for the fewest bytes until the link has shown it takes every byte at
    /// once, and again as soon as an answer comes late.
    func testRowsArePlannedForBytesUnlessTheLinkAnswersAtOnce() {
        let picture = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false)
        let legend: [(label: String, keys: [String])] = [("A", ["x"])]
        var now = ContinuousClock.now
        var planned: [Bool] = []
        func draw(_ shift: Int, answerAfter: Duration) {
            let content = content(frame(shift: shift), columns: 120, rows: 50, legend: legend, status: "GBC")
            XCTAssertNotNil(picture.renderPaced(content, columns: 120, rows: 50, now: now))
            planned.append(picture.renderer.encoder.plansRows)
            XCTAssertEqual(picture.renderer.encoder.triesLastShiftFirst, !picture.renderer.encoder.plansRows)
            if picture.pacer.framesInFlight > 0 { picture.pacer.replyReceived(now: now + answerAfter) }
            now += .milliseconds(16)
        }
        for shift in 0..<6 { draw(shift, answerAfter: .microseconds(300)) }
        XCTAssertEqual(planned, [true, true, true, true, false, false])
        while picture.pacer.framesInFlight == 0 && !picture.pacer.wantsProbe { draw(planned.count, answerAfter: .microseconds(300)) }
        draw(planned.count, answerAfter: .milliseconds(40))
        draw(planned.count, answerAfter: .milliseconds(40))
        XCTAssertEqual(planned.last, true, "a late answer: bytes first again")
    }

    func testShowingPixelsClearsTheScreensCells() {
        let picture = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false)
        let legend: [(label: String, keys: [String])] = [("A", ["x"])]
        let content = content(frame(shift: 0), columns: 120, rows: 50, legend: legend, status: "GBC")
        _ = picture.render(content, columns: 120, rows: 50)
        let halfBlocks = picture.renderer.canvas.cells
        picture.pixels = PlayPixelLayer(output: .kitty(files: false, cell: nil))
        _ = picture.render(content, columns: 120, rows: 50)
        let withPixels = picture.renderer.canvas.cells
        XCTAssertGreaterThan(differingCells(withPixels, halfBlocks), 1000, "the picture's cells are left clear for the pixels")
        let fresh = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false)
        fresh.pixels = PlayPixelLayer(output: .kitty(files: false, cell: nil))
        _ = fresh.render(content, columns: 120, rows: 50)
        XCTAssertEqual(differingCells(withPixels, fresh.renderer.canvas.cells), 0)
        picture.pixelsHidden = true
        _ = picture.render(content, columns: 120, rows: 50)
        XCTAssertEqual(differingCells(picture.renderer.canvas.cells, halfBlocks), 0, "hidden pixels: the half-block picture again")
    }

    /// The terminal's word that shifted rows wait for its display server (xterm) reaches the
    /// encoder, which then shifts only whole scrolls; other terminals get every shift that pays.
    func testATerminalWhoseShiftsWaitForTheServerGetsOnlyWholeScrollsShifted() {
        let xterm = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false, editsLines: true,
                                shiftedRowsWaitForTheServer: true)
        XCTAssertTrue(xterm.renderer.encoder.shiftsRows)
        XCTAssertTrue(xterm.renderer.encoder.shiftsOnlyWholeScrolls)
        let other = PlayPicture(colorMode: .trueColor, integerScale: true, synchronizedOutput: false, editsLines: true)
        XCTAssertFalse(other.renderer.encoder.shiftsOnlyWholeScrolls)
    }
}
