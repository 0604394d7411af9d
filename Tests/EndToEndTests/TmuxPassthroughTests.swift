import Foundation
import XCTest

/// Kitty graphics through tmux: the real binary inside a real tmux (3.3a here) inside a
/// pseudo-terminal that answers like kitty (Support/tmux_kitty_pty.py). With
/// `allow-passthrough on` the query and the game's images reach the outer terminal through the
/// passthrough and the pause menu takes the image down; with it off nothing gets through and the
/// game stays on half blocks.
final class TmuxPassthroughTests: XCTestCase {
    private func run(passthrough: String, split: Bool = false) throws -> [String: Any] {
        let socket = "phosphor-passthrough-\(ProcessInfo.processInfo.processIdentifier)-\(passthrough)\(split ? "-split" : "")"
        return try ptyScriptVerdict("tmux_kitty_pty.py", arguments: [socket, passthrough] + (split ? ["split"] : []))
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

    /// A pane that is not at the window's top-left (the right half of a split at column 50):
    /// the cursor move in the passthrough is the outer terminal's, so every image is placed at
    /// its cell in the pane plus the pane's offset, not over the left pane.
    func testInTheRightPaneOfASplitTheImageLandsInThatPane() throws {
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed")
        let verdict = try run(passthrough: "on", split: true)
        let outer = try XCTUnwrap(verdict["placed_at_outer"] as? [[Int]], "\(verdict)")
        let inPane = try XCTUnwrap(verdict["placed_in_pane"] as? [[Int]], "\(verdict)")
        XCTAssertFalse(outer.isEmpty, "\(verdict)")
        let last = try XCTUnwrap(inPane.last, "\(verdict)")
        XCTAssertEqual(outer.last, [last[0], last[1] + 50], "row and column: the pane's cell plus the pane's offset (column 50)")
        XCTAssertTrue(outer.allSatisfy { $0[1] >= 50 }, "no image over the left pane: \(outer)")
    }

    func testWithPassthroughOffNothingGetsThrough() throws {
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed")
        let verdict = try run(passthrough: "off")
        XCTAssertEqual(verdict["queries_reached_outer"] as? Int, 0, "\(verdict)")
        XCTAssertEqual(verdict["images_placed"] as? Int, 0, "\(verdict)")
    }
}
