import Foundation
import Input
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// Key release without the terminal (issue 12, item 4) through the whole app: a side channel
/// (here scripted, in the app XInput2 or evdev) holds a game's button from press to release and
/// the status bar says which source is in use; without one, a tap is a short press; and the
/// shell's menus move one row per tap whatever the hold model does.
final class KeyReleaseInProcessTests: XCTestCase {
    func testSideChannelHoldsTheButtonUntilReleaseAndTheStatusBarNamesIt() throws {
        let source = ScriptedKeyReleaseSource(name: "XInput2")
        let game = try PlayHarness(label: "key-release-source", keyRelease: source)
        defer { game.finish() }
        game.stepUntilPicture([])
        XCTAssertTrue(game.screen.lines.last?.contains("keys: XInput2") ?? false, "status bar: \(game.screen.lines.last ?? "")")
        XCTAssertEqual(game.app.app.session?.input.holdSourceName, "XInput2")
        source.send(.down(.right), at: game.app.terminal.now)
        game.stepUntilPicture([.right])
        // The terminal's own press and autorepeat of Right change nothing (no double count) ...
        for _ in 0..<5 { game.app.type("\u{1B}[C") }
        game.app.run(steps: 200)  // well past any autorepeat window on the manual clock
        game.stepUntilPicture([.right])
        // ... and the release lets go at once.
        source.send(.up(.right), at: game.app.terminal.now)
        game.stepUntilPicture([])
        game.finish()
        XCTAssertTrue(source.isStopped, "the source stops with the game")
    }

    func testWithoutReleaseATapIsAShortPressAndTheStatusBarSaysTap() throws {
        let game = try PlayHarness(label: "key-release-tap")
        defer { game.finish() }
        game.stepUntilPicture([])
        XCTAssertTrue(game.screen.lines.last?.contains("keys: tap") ?? false, "status bar: \(game.screen.lines.last ?? "")")
        let input = try XCTUnwrap(game.app.app.session?.input)
        let pressed = game.app.terminal.now
        game.app.type("\u{1B}[C")
        game.app.run(steps: 1)
        XCTAssertEqual(input.buttons(port: 0, now: pressed + .milliseconds(30)), ButtonMask([.right]))
        XCTAssertEqual(input.buttons(port: 0, now: pressed + .milliseconds(200)), [], "a tap is over in a few frames, not 700 ms")
    }

    func testPauseMenuMovesOneRowPerTapAndNeverOvershoots() throws {
        let game = try PlayHarness(label: "key-release-menu")
        defer { game.finish() }
        game.pauseOnceDrawn()
        XCTAssertTrue(game.isSelected("Resume"))
        let tapped = game.app.terminal.now
        game.app.type("\u{1B}[B")  // one tap of Down
        game.app.run(steps: 100)
        XCTAssertGreaterThan(game.app.terminal.now - tapped, .seconds(1), "longer than any autorepeat delay")
        XCTAssertTrue(game.isSelected("Save State"), "one tap, one row:\n\(game.screen.text)")
        game.app.type("\u{1B}[B")
        game.app.run(steps: 100)
        XCTAssertTrue(game.isSelected("Load State"), "one tap, one row:\n\(game.screen.text)")
        game.app.type("\u{1B}[A")
        game.app.run(steps: 100)
        XCTAssertTrue(game.isSelected("Save State"), "one tap, one row:\n\(game.screen.text)")
    }
}
