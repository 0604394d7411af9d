import XCTest
@testable import Input

/// The replies to the pixel-graphics queries, as terminals send them.
final class KeyDecoderGraphicsReplyTests: XCTestCase {
    func testKittyGraphicsRepliesCarryTheirIdAndMessage() {
        XCTAssertEqual(decode("\u{1B}_Gi=31;OK\u{1B}\\"), [.graphicsReply(imageID: 31, message: "OK")])
        XCTAssertEqual(decode("\u{1B}_Gi=32;ENOENT:No such file or directory\u{1B}\\"),
                       [.graphicsReply(imageID: 32, message: "ENOENT:No such file or directory")])
        XCTAssertEqual(decode("\u{1B}_Gi=7,p=1;OK\u{1B}\\"), [.graphicsReply(imageID: 7, message: "OK")])
        XCTAssertEqual(decode("\u{1B}_Gp=1;OK\u{1B}\\"), [], "no image id: not ours")
        XCTAssertEqual(decode("\u{1B}_Xsomething\u{1B}\\a"), [press(.character("a"))], "other APC strings are skipped")
    }

    func testXTSMGraphicsAndCellSizeReplies() {
        XCTAssertEqual(decode("\u{1B}[?1;0;256S"), [.graphicsAttribute(item: 1, status: 0, values: [256])])
        XCTAssertEqual(decode("\u{1B}[?2;0;1600;1200S"), [.graphicsAttribute(item: 2, status: 0, values: [1600, 1200])])
        XCTAssertEqual(decode("\u{1B}[?1;3;0S"), [.graphicsAttribute(item: 1, status: 3, values: [0])])
        XCTAssertEqual(decode("\u{1B}[6;20;8t"), [.cellPixelSize(width: 8, height: 20)])
        XCTAssertEqual(decode("\u{1B}[4;600;800t"), [], "a window size report is not a cell size")
    }

    func testRepliesSplitAcrossReads() {
        let bytes = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;8t\u{1B}[?62;c".utf8)
        XCTAssertEqual(decodeReads(bytes.map { [$0] }),
                       [.graphicsReply(imageID: 31, message: "OK"), .cellPixelSize(width: 8, height: 20), .deviceAttributes([62, 0])])
    }
}
