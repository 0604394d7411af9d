import Foundation
import XCTest
@testable import PhosphorKit

final class AtomicFileTests: XCTestCase {
    func testWriteReplacesWholeFileAndLeavesNoTemporaries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("game.srm")
        try AtomicFile.write(Data(repeating: 1, count: 8192), to: target)
        try AtomicFile.write(Data(repeating: 2, count: 100), to: target)
        XCTAssertEqual(try Data(contentsOf: target), Data(repeating: 2, count: 100))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["game.srm"])
    }

    func testPNGRoundTrip() throws {
        var rgba = [UInt8]()
        for i in 0..<(5 * 3) { rgba += [UInt8(i * 10), UInt8(255 - i), 7, 255] }
        let image = PNGImage(width: 5, height: 3, rgba: rgba)
        let bytes = try image.encoded()
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(try PNGImage(decoding: bytes), image)
        XCTAssertThrowsError(try PNGImage(decoding: Array(bytes.prefix(20))))
    }

    func testButtonScriptParsing() throws {
        XCTAssertEqual(try ButtonMask(parsing: "a+b+up"), ButtonMask([.a, .b, .up]))
        XCTAssertEqual(try ButtonMask(parsing: "-"), [])
        XCTAssertThrowsError(try ButtonMask(parsing: "a+jump"))
        XCTAssertEqual(ButtonMask([.start, .a]).scriptText, "start+a")
    }

    func testHashOfKnownFrame() {
        // Two pixels in RGB565: pure red and pure white, expanded to XRGB8888 before hashing.
        let frame = VideoFrame(width: 2, height: 1, format: .rgb565, pixels: [0x00, 0xF8, 0xFF, 0xFF], sequence: 1)
        XCTAssertEqual(frame.xrgb8888(), [0xFF0000, 0xFFFFFF])
        var hasher = FNV1a64()
        [UInt8]([0x00, 0x00, 0xFF, 0x00, 0xFF, 0xFF, 0xFF, 0x00]).withUnsafeBytes { hasher.combine($0) }
        XCTAssertEqual(frame.fnv1aHash(), hasher.value)
    }
}

final class VideoFrameComparisonTests: XCTestCase {
    func testSamePictureComparesEveryByte() {
        let pixels = (0..<(13 * 7 * 2)).map { UInt8(truncatingIfNeeded: $0 * 31) }
        let frame = VideoFrame(width: 13, height: 7, format: .rgb565, pixels: pixels, sequence: 1)
        XCTAssertTrue(frame.hasSamePicture(as: VideoFrame(width: 13, height: 7, format: .rgb565, pixels: pixels, sequence: 9)))
        for index in [0, 7, 8, 100, pixels.count - 1] {  // inside a word, at word edges, in the tail
            var changed = pixels
            changed[index] ^= 1
            XCTAssertFalse(frame.hasSamePicture(as: VideoFrame(width: 13, height: 7, format: .rgb565, pixels: changed, sequence: 1)))
        }
        XCTAssertFalse(frame.hasSamePicture(as: VideoFrame(width: 7, height: 13, format: .rgb565, pixels: pixels, sequence: 1)))
    }
}
