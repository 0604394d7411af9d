import Foundation
import TestSupport
import XCTest

/// The game in real terminals under Xvfb, the way a web page is tested in a real browser:
/// kitty (kitty graphics protocol), xterm as a VT340, mlterm and foot (sixel; foot in a headless
/// cage, as Wayland needs). A screenshot's picture region
/// must match the core's own frame scaled to it, and quitting must leave no picture behind.
/// The work is in `Support/real_terminal.py` (Xvfb, ImageMagick's `import`, xdotool).
final class RealTerminalTests: XCTestCase {
    /// `browser`: the library's preview pane with box art instead of a game.
    private func play(in terminal: String, browser: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws -> (psnr: Double, left: Double, mode: String, bottom: Double?) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("phosphor-real-\(terminal)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let script = PhosphorProcess.packageRoot.appendingPathComponent("Tests/EndToEndTests/Support/real_terminal.py").path
        let output = try runCommand(["/usr/bin/env", "python3", script, "--terminal", terminal,
                                     "--binary", PhosphorProcess.binary.path,
                                     "--rom", PhosphorProcess.rom("nes/phosphor-test.nes").path, "--work", work.path]
                                    + (browser ? ["--browser"] : []))
        if output.hasPrefix("skip:") { throw XCTSkip(output.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let fields = Dictionary(uniqueKeysWithValues: output.split(whereSeparator: \.isWhitespace).compactMap { field -> (String, String)? in
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        })
        let psnr = try XCTUnwrap(fields["psnr"].flatMap(Double.init), "no result from real_terminal.py: \(output)", file: file, line: line)
        let left = try XCTUnwrap(fields["left"].flatMap(Double.init), file: file, line: line)
        let mode = output.components(separatedBy: "mode=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return (psnr, left, mode, fields["bottom"].flatMap(Double.init))
    }

    /// The mode starts with `mode`, the picture region matches the core's frame (PSNR over
    /// 30 dB) and quitting left under 0.1 per cent of it lit.
    private func assertShownAndCleared(_ result: (psnr: Double, left: Double, mode: String, bottom: Double?), mode: String,
                                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(result.mode.hasPrefix(mode), result.mode, file: file, line: line)
        XCTAssertGreaterThan(result.psnr, 30, "the picture region against the core's frame scaled to it", file: file, line: line)
        XCTAssertLessThan(result.left, 0.1, "per cent of the picture region still lit after quitting", file: file, line: line)
    }

    func testKittyShowsTheFrameInPixelsAndQuittingDeletesIt() throws {
        let result = try play(in: "kitty")
        assertShownAndCleared(result, mode: "kitty graphics")
    }

    func testXtermAsVT340ShowsTheFrameInSixelAndQuittingClearsIt() throws {
        let result = try play(in: "xterm-vt340")
        assertShownAndCleared(result, mode: "sixel")
    }

    /// The browser's preview pane: the box art as a kitty image over the pane (measured here:
    /// 40 dB against the picture scaled to its cells), gone after Ctrl-Q.
    func testKittyShowsTheBrowsersBoxArtInPixelsAndQuittingDeletesIt() throws {
        let result = try play(in: "kitty", browser: true)
        assertShownAndCleared(result, mode: "kitty graphics")
    }

    func testXtermAsVT340ShowsTheBrowsersBoxArtInSixel() throws {
        let result = try play(in: "xterm-vt340", browser: true)
        assertShownAndCleared(result, mode: "sixel")
    }

    /// mlterm 3.9.0: sixel out of the box; it refuses the XTSMGRAPHICS read, so 256 registers
    /// (measured here: 67 dB for the game, 54 dB for the box art).
    func testMltermShowsTheFrameInSixelAndQuittingClearsIt() throws {
        let result = try play(in: "mlterm")
        assertShownAndCleared(result, mode: "sixel (256 colours)")
    }

    func testMltermShowsTheBrowsersBoxArtInSixel() throws {
        let result = try play(in: "mlterm", browser: true)
        assertShownAndCleared(result, mode: "sixel (256 colours)")
    }

    /// foot 1.13.1 in cage: sixel with its 1024 registers. foot starts the game at 80x24 and
    /// resizes the window a moment later: the game must follow (the status bar on the window's
    /// last row), whether that resize came before its SIGWINCH handler was in place or during
    /// the start-up queries' wait (both were seen here).
    func testFootShowsTheFrameInSixelAtTheWindowsSizeAndQuittingClearsIt() throws {
        let result = try play(in: "foot")
        assertShownAndCleared(result, mode: "sixel (1024 colours)")
        XCTAssertGreaterThan(try XCTUnwrap(result.bottom), 50, "per cent of the window's last row lit by the status bar")
    }
}
