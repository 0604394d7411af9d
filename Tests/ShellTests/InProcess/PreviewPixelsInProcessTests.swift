import Foundation
import PhosphorKit
import Render
import TestSupport
import XCTest
@testable import Shell

/// The browser's preview pane in real pixels, on a headless terminal that answers the graphics
/// queries like kitty or a sixel terminal: the box art goes out as a kitty image over the pane's
/// blank cells (parsed back) or as a sixel (decoded back), replaced when the selection changes,
/// taken down under a menu and on quit.
final class PreviewPixelsInProcessTests: XCTestCase {
    private static let kittyReplies = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t"
    private static let sixelReplies = "\u{1B}[?1;0;256S\u{1B}[6;20;10t\u{1B}[?62;4c"
    /// Every bundled cartridge but the PC Engine one gets box art of its own colours.
    private static let systemsWithArt: [GameSystem] = [.nes, .snes, .gb, .gbc, .gba, .nds]

    /// An 8x6 picture, its left half `left` and its right half blue-ish: orientation shows.
    private static func boxArt(_ index: Int) -> PNGImage {
        var rgba: [UInt8] = []
        for _ in 0..<6 {
            for x in 0..<8 {
                rgba += x < 4 ? [UInt8(40 * index + 20), 200, 10, 255] : [10, 30, UInt8(250 - 30 * index), 255]
            }
        }
        return PNGImage(width: 8, height: 6, rgba: rgba)
    }

    private func makeHarness(_ label: String) throws -> AppHarness {
        try AppHarness(columns: 120, rows: 40, label: label) { paths in
            for (index, system) in Self.systemsWithArt.enumerated() {
                let file = paths.data.appendingPathComponent("thumbnails/\(system.databaseNames[0])/Named_Boxarts/phosphor-test.png")
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(try Self.boxArt(index).encoded()).write(to: file)
            }
        }
    }

    private func kittyCommands(_ harness: AppHarness, since start: Int = 0) throws -> [KittyCommand] {
        try KittyCommand.parse(Array(harness.terminal.output(since: start))).filter { $0.keys["a"] != "q" }
    }

    /// Which box art (index into `systemsWithArt`) the RGB is, pixel for pixel.
    private func artIndex(_ rgb: [UInt8]) -> Int? {
        Self.systemsWithArt.indices.first { PixelImage(Self.boxArt($0)).rgb == rgb }
    }

    private func kittyArt(_ command: KittyCommand) -> Int? {
        (try? Zlib.uncompress(command.payload, maximumLength: 8 * 6 * 3)).flatMap(artIndex)
    }

    /// Half blocks in the preview pane (the right 40 columns below the header).
    private func halfBlocksInPane(_ screen: ScreenModel) -> Int {
        (3..<screen.rows - 2).reduce(0) { count, row in
            count + (screen.columns - 38..<screen.columns).filter { screen.cell(column: $0, row: row).character == "▀" }.count
        }
    }

    func testKittyBoxArtIsPlacedOverThePaneReplacedOnSelectionAndTakenDownUnderTheMenuAndOnQuit() throws {
        let harness = try makeHarness("preview-kitty")
        defer { harness.finish() }
        try harness.start(graphicsReplies: Self.kittyReplies) { _ in try LibraryScreen(services: harness.services) }
        harness.step(untilText: "box art")
        harness.run(steps: 3)
        var placed = try XCTUnwrap(kittyCommands(harness).last { $0.keys["a"] == "T" }, "a kitty image for the box art")
        XCTAssertEqual(placed.keys["i"], "7200")
        XCTAssertEqual(placed.keys["p"], "1")
        XCTAssertEqual(placed.keys["q"], "2")
        XCTAssertEqual(placed.keys["s"], "8")
        XCTAssertEqual(placed.keys["v"], "6")
        // 120 columns: a 40-column pane, 37 inside; 13 rows of 10x20 px cells hold 347x260 px
        // of a 4:3 picture: 35 columns by 13 rows.
        XCTAssertEqual(placed.keys["c"], "35")
        XCTAssertEqual(placed.keys["r"], "13")
        let first = try XCTUnwrap(kittyArt(placed), "the box art's pixels, exactly")
        XCTAssertEqual(halfBlocksInPane(harness.screen), 0, "no half blocks under the image")

        // Down until another game with art: the same ids carry its picture; then a game without
        // art (the PC Engine one): the image is deleted.
        var seen: Set<Int> = [first]
        var deletedForNoArt = false
        for _ in 0..<6 {
            let before = harness.terminal.recorded.count
            harness.type("\u{1B}[B")
            harness.run(steps: 4)
            let commands = try kittyCommands(harness, since: before)
            XCTAssertTrue(commands.allSatisfy { $0.keys["i"] == "7200" }, "\(commands.map(\.keys))")
            if let last = commands.last(where: { $0.keys["a"] == "T" }) {
                placed = last
                seen.insert(try XCTUnwrap(kittyArt(last)))
            }
            if harness.screen.contains("no box art or save state yet") {
                XCTAssertEqual(commands.last?.keys["a"], "d", "the picture of the last game goes")
                deletedForNoArt = true
            }
        }
        XCTAssertGreaterThanOrEqual(seen.count, 2, "each game's own art")
        XCTAssertTrue(deletedForNoArt)
        harness.type("\u{1B}[A")  // back to a game with art
        harness.step(until: "box art") { !$0.contains("no box art") }
        harness.run(steps: 3)

        // The Library menu covers the browser: the image goes and stays gone until it closes.
        let beforeMenu = harness.terminal.recorded.count
        harness.type("\u{0F}")  // Ctrl-O
        harness.step(untilText: "Rescan Library")
        harness.run(steps: 5)
        let underMenu = try kittyCommands(harness, since: beforeMenu)
        XCTAssertEqual(underMenu.last?.keys["a"], "d", "\(underMenu.map(\.keys))")
        XCTAssertEqual(underMenu.last?.keys["i"], "7200")
        let beforeClose = harness.terminal.recorded.count
        harness.type("\u{1B}")
        harness.step(until: "the menu closed") { !$0.contains("Rescan Library") }
        harness.run(steps: 3)
        XCTAssertNotNil(try kittyCommands(harness, since: beforeClose).last { $0.keys["a"] == "T" }, "back over the pane")

        // Quit: no picture stays behind.
        let beforeQuit = harness.terminal.recorded.count
        harness.type("\u{11}")  // Ctrl-Q
        harness.run(steps: 3)
        harness.app.finish()
        let atQuit = try kittyCommands(harness, since: beforeQuit)
        XCTAssertEqual(atQuit.last?.keys["a"], "d", "\(atQuit.map(\.keys))")
    }

    func testSixelBoxArtDecodesToThePictureAndLeavesNoPixelsBehindWhenTheSelectionChanges() throws {
        let harness = try makeHarness("preview-sixel")
        defer { harness.finish() }
        harness.screen.cellPixelSize = (10, 20)
        try harness.start(answersKeyboard: false, graphicsReplies: Self.sixelReplies) { _ in
            try LibraryScreen(services: harness.services)
        }
        harness.step(until: "a sixel over the pane") { $0.contains("box art") && !$0.sixelCells.isEmpty }
        let sixel = try XCTUnwrap(Self.lastSixel(harness.terminal.recorded))
        // 8x6 at a whole scale (43: 344x258 px fits 370x260), nearest neighbour: every block one
        // colour, the box art's.
        XCTAssertEqual(sixel.width, 8 * 43)
        XCTAssertEqual(sixel.height, 6 * 43)
        var rgb: [UInt8] = []
        for y in 0..<6 {
            for x in 0..<8 {
                let pixel = sixel.pixels[(y * 43 + 21) * sixel.width + x * 43 + 21] ?? 0
                rgb += [UInt8(pixel >> 16), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)]
            }
        }
        let expected = Self.systemsWithArt.indices.map { PixelImage(Self.boxArt($0)).rgb }
        XCTAssertTrue(expected.contains { zip($0, rgb).allSatisfy { abs(Int($0) - Int($1)) <= 2 } }, "\(rgb)")
        XCTAssertEqual(halfBlocksInPane(harness.screen), 0)
        let covered = harness.screen.sixelCells
        XCTAssertEqual(covered.count, 35 * 13, "344x258 px on 10x20 px cells")
        // A draw that changes nothing in the pane (a search typed and cleared) leaves it: the
        // browser's updates write only what changed, never a clear of the whole screen.
        harness.type("zz")
        harness.step(untilText: "zz▏")
        harness.type("\u{1B}")
        harness.step(untilText: "type to search")
        harness.run(steps: 3)
        XCTAssertEqual(harness.screen.sixelCells, covered)

        // Down to the game without art: ncurses repaints the old picture's cells (a sixel would
        // otherwise stay where ncurses thinks the cells are blank), and no new sixel goes there.
        for _ in 0..<6 where !harness.screen.contains("no box art or save state yet") {
            harness.type("\u{1B}[B")
            harness.run(steps: 4)
            if !harness.screen.contains("no box art") {
                XCTAssertEqual(harness.screen.sixelCells.count, 35 * 13, "the next game's picture, in the same place")
            }
        }
        XCTAssertTrue(harness.screen.contains("no box art or save state yet"))
        XCTAssertTrue(harness.screen.sixelCells.isEmpty, "\(harness.screen.sixelCells.count) cells still show the last picture")
    }

    /// Inside tmux with `allow-passthrough on`, the outer terminal's kitty answer arrives after
    /// tmux's own DA1 (measured with tmux 3.3a): the pane switches to pixels then, and every
    /// kitty command goes out wrapped in tmux's passthrough.
    func testInsideTmuxTheLateKittyAnswerBringsPixelsThroughThePassthrough() throws {
        let harness = try AppHarness(columns: 120, rows: 40, label: "preview-tmux", environment: ["TMUX": "/tmp/tmux-0/default,1,0"]) { paths in
            let file = paths.data.appendingPathComponent("thumbnails/\(GameSystem.nes.databaseNames[0])/Named_Boxarts/phosphor-test.png")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(try Self.boxArt(0).encoded()).write(to: file)
        }
        defer { harness.finish() }
        try harness.start { _ in try LibraryScreen(services: harness.services) }
        harness.step(untilText: "6 of 6")
        XCTAssertTrue(String(decoding: Array(harness.terminal.recorded), as: UTF8.self)
            .contains("\u{1B}Ptmux;\u{1B}\u{1B}_Gi=31,s=1,v=1,a=q"), "the kitty query, through the passthrough")
        let before = harness.terminal.recorded.count
        harness.type("\u{1B}[6;20;10t\u{1B}_Gi=31;OK\u{1B}\\")
        // Down to the NES game: its box art, as a kitty image inside passthrough strings.
        for _ in 0..<6 where !harness.screen.lines.contains(where: { $0.contains("NES") && $0.contains("PHOSPHOR") && !$0.contains("SNES") }) {
            harness.type("\u{1B}[B")
            harness.run(steps: 3)
        }
        harness.step(until: "the NES box art") { _ in
            String(decoding: Array(harness.terminal.output(since: before)), as: UTF8.self).contains("\u{1B}Ptmux;\u{1B}\u{1B}[")
        }
        harness.run(steps: 3)
        let written = Array(harness.terminal.output(since: before))
        let inner = try Self.unwrapPassthrough(written)
        let placed = try XCTUnwrap(try KittyCommand.parse(inner).last { $0.keys["a"] == "T" })
        XCTAssertEqual(placed.keys["i"], "7200")
        XCTAssertEqual(kittyArt(placed), 0)
        XCTAssertTrue(try KittyCommand.parse(Self.outsidePassthrough(written)).isEmpty, "no kitty command outside the passthrough")
    }

    /// The inner bytes of every `ESC P tmux; … ESC \` in `bytes`, ESCs undoubled.
    private static func unwrapPassthrough(_ bytes: [UInt8]) throws -> [UInt8] {
        let marker = Array("\u{1B}Ptmux;".utf8)
        var inner: [UInt8] = []
        var index = 0
        while index + marker.count <= bytes.count {
            guard Array(bytes[index..<index + marker.count]) == marker else { index += 1; continue }
            index += marker.count
            while index < bytes.count {
                if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == 0x1B {
                    inner.append(0x1B)
                    index += 2
                } else if bytes[index] == 0x1B {
                    index += 2  // ESC \ ends it
                    break
                } else {
                    inner.append(bytes[index])
                    index += 1
                }
            }
        }
        return inner
    }

    /// `bytes` with the passthrough strings cut out.
    private static func outsidePassthrough(_ bytes: [UInt8]) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        while let start = text.range(of: "\u{1B}Ptmux;") {
            var end = start.upperBound
            var scalars = text[end...].unicodeScalars.makeIterator()
            var consumed = 0
            while let scalar = scalars.next() {
                consumed += 1
                if scalar == "\u{1B}" {
                    consumed += 1
                    if scalars.next() != "\u{1B}" { break }
                }
            }
            end = text.unicodeScalars.index(start.upperBound, offsetBy: consumed, limitedBy: text.unicodeScalars.endIndex) ?? text.endIndex
            text.removeSubrange(start.lowerBound..<end)
        }
        return Array(text.utf8)
    }

    /// The last complete sixel image in `bytes`, decoded.
    private static func lastSixel(_ bytes: some Collection<UInt8>) -> SixelImage? {
        let output = Array(bytes)
        let marker = Array("\u{1B}P0;1;0q".utf8)
        guard output.count > marker.count,
              let start = stride(from: output.count - marker.count, through: 0, by: -1)
                .first(where: { Array(output[$0..<$0 + marker.count]) == marker }),
              let end = (start..<output.count - 1).first(where: { output[$0] == 0x1B && output[$0 + 1] == UInt8(ascii: "\\") })
        else { return nil }
        return try? SixelImage.decode(Array(output[start...end + 1]))
    }
}
