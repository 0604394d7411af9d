import XCTest
import PhosphorKit
@testable import Input

final class PlayerInputTests: XCTestCase {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    func testLegacyKeysBecomeButtonsOnTheirPorts() {
        let input = PlayerInput(system: .snes, keyMap: .defaults(for: .snes), releaseEvents: false)
        for event in decode("\u{1B}[Axi") { _ = input.handle(event, now: at(0)) }
        XCTAssertEqual(input.buttons(port: 0, now: at(10)), ButtonMask([.up, .a]))
        XCTAssertEqual(input.buttons(port: 1, now: at(10)), ButtonMask([.up]))
        XCTAssertEqual(input.buttons(port: 0, now: at(700)), ButtonMask([]))
    }

    func testKittyReleaseAndRightShiftSelect() {
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: true)
        for event in decode("\u{1B}[57447;2u\u{1B}[122u") { _ = input.handle(event, now: at(0)) }
        XCTAssertEqual(input.buttons(port: 0, now: at(5000)), ButtonMask([.select, .b]))
        for event in decode("\u{1B}[57447;2:3u") { _ = input.handle(event, now: at(5000)) }
        XCTAssertEqual(input.buttons(port: 0, now: at(5001)), ButtonMask([.b]))
    }

    func testActionsFireOncePerPressNotOnAutorepeat() {
        let input = PlayerInput(system: .gb, keyMap: .defaults(for: .gb), releaseEvents: false)
        let f5 = decode("\u{1B}[15~")[0]
        XCTAssertEqual(input.handle(f5, now: at(0)), [.quickSave])
        XCTAssertEqual(input.handle(f5, now: at(500)), [])  // autorepeat
        XCTAssertEqual(input.handle(f5, now: at(533)), [])
        XCTAssertEqual(input.handle(f5, now: at(1000)), [.quickSave])  // a new press after the repeats stopped
        XCTAssertEqual(input.handle(press(.escape), now: at(1000)), [.pauseMenu])
        // F5 is carried by Right (pressed while F5 counted as held), but a new F5 press still saves.
        _ = input.handle(press(.right), now: at(1100))
        XCTAssertEqual(input.handle(f5, now: at(2100)), [.quickSave])
        XCTAssertEqual(input.handle(.paste("x"), now: at(1000)), [])
        XCTAssertEqual(input.buttons(port: 0, now: at(1001)), ButtonMask([]))
    }

    func testFastForwardHold() {
        let input = PlayerInput(system: .gba, keyMap: .defaults(for: .gba), releaseEvents: true)
        XCTAssertEqual(input.handle(press(.character(" ")), now: at(0)), [])
        XCTAssertTrue(input.isFastForwardHeld(now: at(300)))
        _ = input.handle(release(.character(" ")), now: at(300))
        XCTAssertFalse(input.isFastForwardHeld(now: at(400)))
    }

    func testHoldButtonToggleFromKeys() {
        let input = PlayerInput(system: .snes, keyMap: .defaults(for: .snes), releaseEvents: true)
        _ = input.handle(press(.character("h")), now: at(0))
        XCTAssertTrue(input.holdButtons.isArmed)
        XCTAssertEqual(input.holdStatusText, "HOLD: press a button")
        _ = input.handle(release(.character("h")), now: at(10))
        _ = input.handle(press(.character("x")), now: at(20))
        _ = input.handle(release(.character("x")), now: at(30))
        _ = input.handle(press(.character("h")), now: at(40))
        _ = input.handle(press(.right), now: at(50))
        _ = input.handle(release(.right), now: at(60))
        XCTAssertFalse(input.holdButtons.isArmed)
        XCTAssertEqual(input.holdStatusText, "HOLD RIGHT+A")
        XCTAssertEqual(input.buttons(port: 0, now: at(10_000)), ButtonMask([.right, .a]))
        XCTAssertEqual(input.buttons(port: 1, now: at(10_000)), ButtonMask([]))
        // Armed, then Esc: disarms instead of opening the menu.
        _ = input.handle(press(.character("h")), now: at(10_000))
        XCTAssertEqual(input.handle(press(.escape), now: at(10_010)), [])
        XCTAssertFalse(input.holdButtons.isArmed)
        // From the menu: toggling A off.
        input.holdButtons.toggle(.a)
        XCTAssertEqual(input.buttons(port: 0, now: at(10_020)), ButtonMask([.right]))
        XCTAssertEqual(HoldButtons().statusText(for: .snes), nil)
    }

    func testGenesisHoldLabelsUseConsoleNames() {
        var hold = HoldButtons()
        hold.toggle(.y)
        hold.toggle(.a)
        XCTAssertEqual(hold.statusText(for: .genesis), "HOLD C+A")
    }

    func testGamepadMasksMerge() {
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: true)
        input.gamepadButtons = [ButtonMask([.start]), ButtonMask([.a, .left])]
        _ = input.handle(press(.character("z")), now: at(0))
        XCTAssertEqual(input.buttons(port: 0, now: at(1)), ButtonMask([.start, .b]))
        XCTAssertEqual(input.buttons(port: 1, now: at(1)), ButtonMask([.a, .left]))
        XCTAssertEqual(input.buttons(port: 3, now: at(1)), ButtonMask([]))
    }

    func testFocusLossReleasesKeys() {
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: true)
        _ = input.handle(press(.up), now: at(0))
        _ = input.handle(.focus(false), now: at(100))
        XCTAssertEqual(input.buttons(port: 0, now: at(101)), ButtonMask([]))
    }

    func testTouchScreenClicksAndDrags() {
        let input = PlayerInput(system: .nds, keyMap: .defaults(for: .nds), releaseEvents: false)
        let screen = CellRect(x: 0, y: 24, columns: 64, rows: 24)
        input.touchScreen = screen
        // A click above the touch screen does nothing.
        for event in decode("\u{1B}[<0;10;5M") { _ = input.handle(event, now: at(0)) }
        XCTAssertFalse(input.pointer.pressed)
        for event in decode("\u{1B}[<0;1;25M") { _ = input.handle(event, now: at(0)) }
        let topLeft = PointerMapping.pointer(column: 0, row: 24, touchScreen: screen)!
        XCTAssertEqual(input.pointer.x, topLeft.x)
        XCTAssertEqual(input.pointer.y, topLeft.y)
        XCTAssertTrue(input.pointer.pressed)
        // Dragging off the right edge clamps; releasing lifts the stylus.
        for event in decode("\u{1B}[<32;100;25M") { _ = input.handle(event, now: at(1)) }
        XCTAssertEqual(input.pointer.x, -topLeft.x)
        for event in decode("\u{1B}[<0;100;25m") { _ = input.handle(event, now: at(2)) }
        XCTAssertFalse(input.pointer.pressed)
    }

    /// kitty (pixels from 0, 8x16 cells) with the touch screen as a 3x placement at cell 20,2:
    /// press, drag and release land on the exact frame pixels.
    func testPixelReportsPressDragAndReleaseOnExactFramePixels() {
        let input = PlayerInput(system: .nds, keyMap: .defaults(for: .nds), releaseEvents: false)
        input.touchScreen = CellRect(x: 20, y: 2, columns: 96, rows: 36)
        input.touchPixels = TouchPixels(area: PixelRect(x: 160, y: 32, width: 768, height: 576), pictureWidth: 256, pictureHeight: 192)
        var decoder = KeyDecoder()
        decoder.mousePixels = MousePixelReports(cell: CellPixelSize(width: 8, height: 16), origin: 0)
        func send(_ text: String, _ time: Int) {
            for event in decoder.decode(Array(text.utf8), now: at(time)) { _ = input.handle(event, now: at(time)) }
        }
        func framePixel() -> [Int] {
            [(Int(input.pointer.x) + 0x7FFF) * 256 / 0xFFFE, (Int(input.pointer.y) + 0x7FFF) * 192 / 0xFFFE]
        }
        send("\u{1B}[<0;159;100M", 0)
        XCTAssertFalse(input.pointer.pressed, "one pixel left of the picture")
        // Frame pixel 10,20 covers terminal pixels 190...192 x 92...94.
        send("\u{1B}[<0;192;92M", 1)
        XCTAssertTrue(input.pointer.pressed)
        XCTAssertEqual(framePixel(), [10, 20])
        send("\u{1B}[<32;193;95M", 2)
        XCTAssertEqual(framePixel(), [11, 21])
        // Dragged out past the bottom right corner: the last pixel.
        send("\u{1B}[<32;2000;900M", 3)
        XCTAssertEqual(framePixel(), [255, 191])
        send("\u{1B}[<0;2000;900m", 4)
        XCTAssertFalse(input.pointer.pressed)
    }

    func testNoticeOnlyWithoutReleases() {
        XCTAssertNil(PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: true).notice)
        let notice = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: false).notice
        XCTAssertTrue(notice?.contains("kitty") == true)
        XCTAssertTrue(notice?.contains("gamepad") == true)
    }
}
