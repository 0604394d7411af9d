import Foundation
import XCTest

/// Kitty graphics through tmux: the real binary inside a real tmux (3.3a here) inside a
/// pseudo-terminal that answers like kitty (Support/tmux_kitty_pty.py). With
/// `allow-passthrough on` the query and the game's images reach the outer terminal through the
/// passthrough and the pause menu takes the image down; with it off nothing gets through and the
/// game stays on half blocks.
final class TmuxPassthroughTests: XCTestCase {
    private func run(passthrough: String) throws -> [String: Any] {
        let phosphor = try PhosphorProcess()
        defer { phosphor.cleanUp() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = PhosphorProcess.packageRoot.appendingPathComponent("Tests/EndToEndTests/Support/tmux_kitty_pty.py")
        let socket = "phosphor-passthrough-\(ProcessInfo.processInfo.processIdentifier)-\(passthrough)"
        process.arguments = ["python3", script.path, PhosphorProcess.binary.path,
                             PhosphorProcess.rom("nes/phosphor-test.nes").path, phosphor.home.path, socket, passthrough]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                             String(decoding: data, as: UTF8.self))
    }

    func testWithPassthroughOnTheGameIsAKittyImageTakenDownUnderTheMenu() throws {
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed")
        let verdict = try run(passthrough: "on")
        XCTAssertGreaterThanOrEqual(verdict["queries_reached_outer"] as? Int ?? 0, 1, "\(verdict)")
        XCTAssertGreaterThanOrEqual(verdict["images_placed"] as? Int ?? 0, 1, "\(verdict)")
        XCTAssertEqual(verdict["image_ids"] as? [String], ["7100"])
        XCTAssertEqual(verdict["deleted_under_menu"] as? Bool, true, "\(verdict)")
        XCTAssertEqual(verdict["placed_after_delete"] as? Bool, false, "no image over the menu")
    }

    func testWithPassthroughOffNothingGetsThrough() throws {
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed")
        let verdict = try run(passthrough: "off")
        XCTAssertEqual(verdict["queries_reached_outer"] as? Int, 0, "\(verdict)")
        XCTAssertEqual(verdict["images_placed"] as? Int, 0, "\(verdict)")
    }
}
