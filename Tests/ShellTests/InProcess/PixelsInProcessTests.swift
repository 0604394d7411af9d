import Emulation
import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// The game in real pixels on a headless terminal that answers the graphics queries like kitty
/// or a sixel terminal: what goes out is parsed back (kitty commands) or decoded (sixel).
final class PixelsInProcessTests: XCTestCase {
    private static let kittyReplies = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t"
    private static let sixelReplies = "\u{1B}[?1;0;256S\u{1B}[6;20;10t"

    /// The kitty commands about pictures (not the start-up queries) written since `start`.
    private func kittyCommands(_ game: PlayHarness, since start: Int = 0) throws -> [KittyCommand] {
        try KittyCommand.parse(Array(game.app.terminal.output(since: start))).filter { $0.keys["a"] != "q" }
    }

    /// Whether `rgb` (packed RGB, one per pixel) is exactly one of the scripted core's pictures
    /// with `buttons` held (the bar moves each frame: any frame of its cycle).
    private func isScriptedPicture(_ rgb: [UInt8], _ game: PlayHarness, buttons: [JoypadButton],
                                   tolerance: Int = 0) -> Bool {
        (0..<UInt64(game.script.width / 2)).contains { frame in
            let picture = ScriptedCore.picture(frame: frame, masks: [ButtonMask(buttons)], script: game.script).xrgb8888()
            guard picture.count * 3 == rgb.count else { return false }
            return picture.indices.allSatisfy { index in
                let pixel = picture[index]
                return abs(Int(pixel >> 16 & 0xFF) - Int(rgb[index * 3])) <= tolerance
                    && abs(Int(pixel >> 8 & 0xFF) - Int(rgb[index * 3 + 1])) <= tolerance
                    && abs(Int(pixel & 0xFF) - Int(rgb[index * 3 + 2])) <= tolerance
            }
        }
    }

    private func step(_ game: PlayHarness, until description: String, _ condition: () throws -> Bool,
                      file: StaticString = #filePath, line: UInt = #line) rethrows {
        for _ in 0..<3000 {
            if try condition() { return }
            game.app.run(steps: 1)
            Thread.sleep(forTimeInterval: 0.001)
        }
        XCTFail("never saw \(description)", file: file, line: line)
    }

    func testKittyImageIsReplacedInPlaceAndTakenDownUnderTheMenuAndOnQuit() throws {
        let game = try PlayHarness(label: "pixels-kitty", graphicsReplies: Self.kittyReplies)
        defer { game.finish() }
        try step(game, until: "a kitty image") { try kittyCommands(game).contains { $0.keys["a"] == "T" } }
        let image = try XCTUnwrap(kittyCommands(game).last { $0.keys["a"] == "T" })
        XCTAssertEqual(image.keys["i"], "7100")
        XCTAssertEqual(image.keys["p"], "1")
        XCTAssertEqual(image.keys["q"], "2")
        XCTAssertEqual(image.keys["o"], "z", "no file answer: compressed in the escape code")
        XCTAssertEqual(image.keys["s"], "64")
        XCTAssertEqual(image.keys["v"], "48")
        let pixels = try Zlib.uncompress(image.payload, maximumLength: 64 * 48 * 3)
        XCTAssertTrue(isScriptedPicture(pixels, game, buttons: []), "the core's frame, pixel for pixel")
        XCTAssertTrue(game.screen.lines.last?.hasPrefix(" NES · ") ?? false, "the status bar stays text")

        // A new frame (A held) replaces the image under the same ids: no other id appears.
        game.app.type("x")
        let pressed = game.backgroundRGB([.a])
        try step(game, until: "the image for A") {
            guard let last = try kittyCommands(game).last(where: { $0.keys["a"] == "T" }),
                  let rgb = try? Zlib.uncompress(last.payload, maximumLength: 64 * 48 * 3) else { return false }
            return isScriptedPicture(rgb, game, buttons: [.a])
        }
        XCTAssertEqual(Set(try kittyCommands(game).compactMap { $0.keys["i"] }), ["7100"])
        XCTAssertEqual(game.cells(showing: pressed), 0, "no half blocks under the image")

        // The pause menu takes the image down (it would sit above the menu's text).
        let beforeMenu = game.app.terminal.recorded.count
        game.openPauseMenu()
        let menuCommands = try kittyCommands(game, since: beforeMenu)
        let deleted = try XCTUnwrap(menuCommands.lastIndex { $0.keys["a"] == "d" && $0.keys["i"] == "7100" })
        XCTAssertFalse(menuCommands[deleted...].contains { $0.keys["a"] == "T" }, "no image under the menu")
        game.app.run(steps: 20)
        XCTAssertFalse(try kittyCommands(game, since: beforeMenu)[deleted...].contains { $0.keys["a"] == "T" })
        game.select(game.app.app.session?.launchedFromLibrary == true ? "Quit to Library" : "Quit")
        let beforeQuit = game.app.terminal.recorded.count
        game.app.type("\r")
        game.app.run(steps: 3)
        game.app.app.finish()
        XCTAssertFalse(try kittyCommands(game, since: beforeQuit).contains { $0.keys["a"] == "T" })
    }

    func testSixelPictureDecodesToTheFrameScaledByAWholeFactor() throws {
        // The terminal's own DA1 (with attribute 4) ends the queries; the harness sends none.
        let game = try PlayHarness(label: "pixels-sixel", answersKeyboard: false,
                                   graphicsReplies: Self.sixelReplies + "\u{1B}[?62;4c")
        defer { game.finish() }
        var sixel: SixelImage?
        try step(game, until: "a sixel image") {
            let output = Array(game.app.terminal.recorded)
            let marker = Array("\u{1B}P0;1;0q".utf8)
            guard let start = stride(from: output.count - marker.count, through: 0, by: -1)
                .first(where: { Array(output[$0..<$0 + marker.count]) == marker }) else { return false }
            guard let end = (start..<output.count - 1).first(where: { output[$0] == 0x1B && output[$0 + 1] == UInt8(ascii: "\\") })
            else { return false }
            sixel = try SixelImage.decode(Array(output[start...end + 1]))
            return true
        }
        let image = try XCTUnwrap(sixel)
        // 100x32 terminal, status bar, 10x20 px cells: the skin's rectangle holds 64x48 whole
        // multiples; the picture is one of them, every pixel drawn.
        XCTAssertEqual(image.width % 64, 0)
        XCTAssertEqual(image.height, image.width / 64 * 48)
        XCTAssertGreaterThanOrEqual(image.width / 64, 2)
        XCTAssertFalse(image.pixels.contains(nil))
        // Back to the frame's size by taking every scale-th pixel: the core's picture (to sixel's
        // per-cent precision), and every pixel of a block the same.
        let scale = image.width / 64
        var rgb: [UInt8] = []
        var uniform = true
        for y in 0..<48 {
            for x in 0..<64 {
                let pixel = image.pixels[y * scale * image.width + x * scale] ?? 0
                rgb += [UInt8(pixel >> 16), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)]
                uniform = uniform && image.pixels[(y * scale + scale - 1) * image.width + x * scale + scale - 1] == pixel
            }
        }
        XCTAssertTrue(uniform, "nearest neighbour: whole blocks")
        XCTAssertTrue(isScriptedPicture(rgb, game, buttons: [], tolerance: 2))
        XCTAssertEqual(game.app.app.services.graphics.sixelRegisters, 256)
    }

    func testVideoBlocksSendsNoPixelsAndAModeTheTerminalDidNotConfirmSaysSo() throws {
        let blocks = try PlayHarness(label: "pixels-blocks", graphicsReplies: Self.kittyReplies, videoMode: .blocks)
        blocks.stepUntilPicture([])
        XCTAssertTrue(try kittyCommands(blocks).isEmpty)
        blocks.finish()

        let asked = try PlayHarness(label: "pixels-unconfirmed", videoMode: .kitty)
        defer { asked.finish() }
        asked.stepUntilPicture([])
        XCTAssertTrue(asked.app.step(untilText: "kitty graphics: the terminal did not answer"))
        XCTAssertTrue(try kittyCommands(asked).isEmpty, "nothing the terminal did not say it understands")
    }

    func testClosingTheMenuBringsTheImageBack() throws {
        let game = try PlayHarness(label: "pixels-resume", graphicsReplies: Self.kittyReplies)
        defer { game.finish() }
        try step(game, until: "a kitty image") { try kittyCommands(game).contains { $0.keys["a"] == "T" } }
        game.openPauseMenu()
        let beforeResume = game.app.terminal.recorded.count
        game.app.type("\r")  // Resume
        try step(game, until: "the image again") { try kittyCommands(game, since: beforeResume).contains { $0.keys["a"] == "T" } }
        XCTAssertFalse(game.screen.contains("Resume"))
    }

    func testPauseMenuSwitchesBetweenPixelsAndHalfBlocks() throws {
        let game = try PlayHarness(label: "pixels-menu", graphicsReplies: Self.kittyReplies)
        defer { game.finish() }
        try step(game, until: "a kitty image") { try kittyCommands(game).contains { $0.keys["a"] == "T" } }
        game.openPauseMenu()
        game.select("Video")
        game.app.type("\u{1B}[D")  // auto ← blocks (the list wraps)
        game.app.step(untilText: "◂ blocks ▸")
        game.app.type("\u{1B}")
        game.stepUntilPicture([])
        let afterMenu = game.app.terminal.recorded.count
        game.app.run(steps: 20)
        XCTAssertFalse(try kittyCommands(game, since: afterMenu).contains { $0.keys["a"] == "T" })
    }
}
