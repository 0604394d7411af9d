import Foundation
import PhosphorKit
import TestSupport
import XCTest

/// The real binary playing a hardware-rendered core (Tests/Fixtures/glcore) on a synthetic
/// Nintendo 64 ROM, headless, on Mesa's llvmpipe: the picture reaches the screenshot, a save
/// state taken and loaded gives the same frame, and the battery RAM lands in saves/n64/<game>.srm.
final class OpenGLHeadlessTests: XCTestCase {
    private var home: ScratchFolder!
    private var core: URL!
    private var rom: URL!

    override func setUpWithError() throws {
        home = try ScratchFolder("opengl")
        core = try FixtureCore.build("glcore/glcore.c", into: home.url, library: "glcore.so")
        // Header word 80 37 12 40 (big endian, .z64) and a title; the rest is the 4 KB boot area.
        var bytes = [UInt8](repeating: 0, count: 0x1000)
        bytes[0..<4] = [0x80, 0x37, 0x12, 0x40]
        for (index, byte) in "GL TEST".utf8.enumerated() { bytes[0x20 + index] = byte }
        rom = try home.write("Game.z64", Data(bytes))
    }

    override func tearDown() { home.remove() }

    private func phosphor(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess(Binaries.phosphor, ["run", "--headless", "--core", core.path] + arguments + [rom.path],
                         environment: ["PHOSPHOR_HOME": home.url.path]).finish()
    }

    private func hash(_ output: String) -> Substring? { output.split(separator: " ").first { $0.hasPrefix("hash=") } }

    func testScreenshotStateAndBatterySaveOfAnOpenGLCore() throws {
        let shot = home.file("shot.png")
        let straight = try phosphor(["--frames", "30", "--screenshot", shot.path])
        XCTAssertEqual(straight.status, 0, straight.error)
        let image = try PNGImage(decoding: [UInt8](Data(contentsOf: shot)))
        XCTAssertEqual(image.width, 320)
        XCTAssertEqual(image.height, 240)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.rgba[(y * 320 + x) * 4..<(y * 320 + x) * 4 + 3]) }
        XCTAssertEqual(pixel(0, 0), [0xFF, 0, 0], "the red marker is at the top left: bottom-left origin flipped")
        XCTAssertEqual(pixel(0, 239), [30, 0x20, 0x10], "frame 30's clear colour at the bottom left")
        XCTAssertEqual(pixel(160, 120), [0, 0xFF, 0], "the green square in the middle")

        // Battery RAM as the N64 cores keep it: RETRO_MEMORY_SAVE_RAM in saves/n64/Game.srm.
        let save = try Data(contentsOf: home.url.appendingPathComponent("data/saves/n64/Game.srm"))
        XCTAssertEqual(save.count, 512)
        XCTAssertEqual(Array(save.prefix(8)), Array("GLSV".utf8) + [30, 0, 0, 0])

        // A state from frame 10, loaded and run 20 frames, ends on frame 30's picture again.
        let state = home.file("ten.state")
        XCTAssertEqual(try phosphor(["--frames", "12", "--state-out", state.path, "--state-at", "10"]).status, 0)
        let resumed = try phosphor(["--frames", "20", "--state-in", state.path])
        XCTAssertEqual(resumed.status, 0, resumed.error)
        XCTAssertNotNil(hash(straight.output))
        XCTAssertEqual(hash(resumed.output), hash(straight.output), "\(resumed.output) vs \(straight.output)")
    }
}
