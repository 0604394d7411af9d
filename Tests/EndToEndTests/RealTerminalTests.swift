import Foundation
import TestSupport
import XCTest

/// The game in real terminals under Xvfb, the way a web page is tested in a real browser:
/// kitty (kitty graphics protocol) and xterm as a VT340 (sixel). A screenshot's picture region
/// must match the core's own frame scaled to it, and quitting must leave no picture behind.
/// The work is in `Support/real_terminal.py` (Xvfb, ImageMagick's `import`, xdotool).
final class RealTerminalTests: XCTestCase {
    /// `browser`: the library's preview pane with box art instead of a game.
    /// `touch`: a DS game, and a click on that frame pixel of its touch screen (`fields` has
    /// what `real_terminal.py --touch` saw).
    private func play(in terminal: String, browser: Bool = false, touch: (x: Int, y: Int)? = nil,
                      file: StaticString = #filePath, line: UInt = #line) throws -> (psnr: Double, left: Double, mode: String, fields: [String: String]) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("phosphor-real-\(terminal)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let script = PhosphorProcess.packageRoot.appendingPathComponent("Tests/EndToEndTests/Support/real_terminal.py").path
        let output = try runCommand(["/usr/bin/env", "python3", script, "--terminal", terminal,
                                     "--binary", PhosphorProcess.binary.path,
                                     "--rom", PhosphorProcess.rom(touch == nil ? "nes/phosphor-test.nes" : "ds/phosphor-test.nds").path,
                                     "--work", work.path]
                                    + (browser ? ["--browser"] : []) + (touch.map { ["--touch", "\($0.x),\($0.y)"] } ?? []))
        if output.hasPrefix("skip:") { throw XCTSkip(output.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let fields = Dictionary(uniqueKeysWithValues: output.split(whereSeparator: \.isWhitespace).compactMap { field -> (String, String)? in
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        })
        let psnr = try XCTUnwrap(fields["psnr"].flatMap(Double.init), "no result from real_terminal.py: \(output)", file: file, line: line)
        let left = try XCTUnwrap(fields["left"].flatMap(Double.init), file: file, line: line)
        let mode = output.components(separatedBy: "mode=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return (psnr, left, mode, fields)
    }

    func testKittyShowsTheFrameInPixelsAndQuittingDeletesIt() throws {
        let result = try play(in: "kitty")
        XCTAssertTrue(result.mode.hasPrefix("kitty graphics"), result.mode)
        XCTAssertGreaterThan(result.psnr, 30, "the picture region against the core's frame scaled to it")
        XCTAssertLessThan(result.left, 0.1, "per cent of the picture region still lit after quitting")
    }

    /// SGR-Pixels mouse reports (kitty 0.26 answers DECRQM 1016 with 2): a real click in the
    /// middle of one frame pixel of the DS touch screen reaches the core as that pixel, as a
    /// core turns the libretro pointer back into a pixel (`(value + 0x7fff) * 256 / 0xfffe`).
    func testKittyClickOnTheDSTouchScreenLandsOnTheExactFramePixel() throws {
        let target = (x: 77, y: 141)
        let result = try play(in: "kitty", touch: target)
        XCTAssertTrue(result.mode.hasPrefix("kitty graphics"), result.mode)
        let clicked = try XCTUnwrap(result.fields["clicked"], "\(result.fields)").split(separator: ",").compactMap { Int($0) }
        let touch = try XCTUnwrap(result.fields["touch"]).split(separator: ",").compactMap { Int($0) }
        XCTAssertEqual(touch.count, 4)
        XCTAssertEqual(Array(touch[2...]), clicked, "the pixel kitty reported is the one clicked (kitty counts from 0)")
        XCTAssertEqual((touch[0] + 0x7FFF) * 256 / 0xFFFE, target.x)
        XCTAssertEqual((touch[1] + 0x7FFF) * 192 / 0xFFFE, target.y)
    }

    func testXtermAsVT340ShowsTheFrameInSixelAndQuittingClearsIt() throws {
        let result = try play(in: "xterm-vt340")
        XCTAssertTrue(result.mode.hasPrefix("sixel"), result.mode)
        XCTAssertGreaterThan(result.psnr, 30)
        XCTAssertLessThan(result.left, 0.1)
    }

    /// The browser's preview pane: the box art as a kitty image over the pane (measured here:
    /// 40 dB against the picture scaled to its cells), gone after Ctrl-Q.
    func testKittyShowsTheBrowsersBoxArtInPixelsAndQuittingDeletesIt() throws {
        let result = try play(in: "kitty", browser: true)
        XCTAssertTrue(result.mode.hasPrefix("kitty graphics"), result.mode)
        XCTAssertGreaterThan(result.psnr, 30)
        XCTAssertLessThan(result.left, 0.1)
    }

    func testXtermAsVT340ShowsTheBrowsersBoxArtInSixel() throws {
        let result = try play(in: "xterm-vt340", browser: true)
        XCTAssertTrue(result.mode.hasPrefix("sixel"), result.mode)
        XCTAssertGreaterThan(result.psnr, 30)
        XCTAssertLessThan(result.left, 0.1)
    }
}
