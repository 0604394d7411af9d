import XCTest
@testable import Shell

/// The status bar's parts give way least important first, in their own order, never the essentials.
final class StatusTextTests: XCTestCase {
    private func slowLinkStatus() -> StatusText {
        var text = StatusText()
        text.append("NES", .essential)
        text.append("60 fps (shown 48)", .essential)
        text.append("⟲ 5s", .medium)
        text.append("slot 1", .medium)
        text.append("no sound", .low)
        text.append("keys: tap", .low)
        text.append("link 9874 B/s", .high)
        text.append("shown 15/s", .high)
        return text
    }

    func testEverythingShowsWhenThereIsRoom() {
        let text = slowLinkStatus()
        XCTAssertEqual(text.fitted(width: 200), text.text)
        XCTAssertEqual(text.text, "NES · 60 fps (shown 48) · ⟲ 5s · slot 1 · no sound · keys: tap · link 9874 B/s · shown 15/s")
        XCTAssertEqual(text.fitted(width: text.text.count), text.text, "exactly the width fits")
    }

    func testTheLeastImportantGoFirstTheLaterOfEqualOnesBeforeTheEarlier() {
        let text = slowLinkStatus()
        XCTAssertEqual(text.fitted(width: text.text.count - 1),
                       "NES · 60 fps (shown 48) · ⟲ 5s · slot 1 · no sound · link 9874 B/s · shown 15/s")
        XCTAssertEqual(text.fitted(width: 70), "NES · 60 fps (shown 48) · ⟲ 5s · slot 1 · link 9874 B/s · shown 15/s")
        XCTAssertEqual(text.fitted(width: 60), "NES · 60 fps (shown 48) · ⟲ 5s · link 9874 B/s · shown 15/s")
        XCTAssertEqual(text.fitted(width: 52), "NES · 60 fps (shown 48) · link 9874 B/s · shown 15/s")
        XCTAssertEqual(text.fitted(width: 45), "NES · 60 fps (shown 48) · link 9874 B/s")
    }

    func testTheEssentialsStayEvenWhenTooWide() {
        XCTAssertEqual(slowLinkStatus().fitted(width: 10), "NES · 60 fps (shown 48)")
        XCTAssertEqual(StatusText().fitted(width: 10), "")
    }
}
