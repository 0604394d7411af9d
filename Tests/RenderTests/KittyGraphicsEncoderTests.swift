import PhosphorKit
import Render
import TestSupport
import XCTest

/// kitty graphics commands parsed back as a terminal would: chunking, ids, placement, and the
/// payload (zlib inflated) equal to the frame's pixels.
final class KittyGraphicsEncoderTests: XCTestCase {
    private func nesLikeImage() throws -> PixelImage {
        var generator = SeededGenerator(seed: 14)
        let frame = TestFrame.random(width: 256, height: 240, paletteSize: 25, using: &generator)
        return try frame.withSource { PixelImage($0, region: $0.bounds) }
    }

    func testCompressedFrameComesBackInChunksWithItsIdsAndInflatesToTheFrame() throws {
        let image = try nesLikeImage()
        var bytes: [UInt8] = []
        try KittyGraphicsEncoder.place(image, imageID: 7_100, placementID: 1, cells: CellRect(x: 10, y: 2, columns: 64, rows: 30),
                                       transport: .direct(compressed: true), into: &bytes)
        XCTAssertTrue(bytes.starts(with: Array("\u{1B}[3;11H".utf8)), "the cursor goes to the placement's corner first")
        let commands = try KittyCommand.parse(bytes)
        XCTAssertEqual(commands.count, 1)
        let command = try XCTUnwrap(commands.first)
        XCTAssertEqual(command.keys, ["a": "T", "q": "2", "f": "24", "s": "256", "v": "240", "i": "7100", "p": "1",
                                      "c": "64", "r": "30", "C": "1", "o": "z"])
        XCTAssertGreaterThan(command.chunkCount, 1, "random pixels do not fit one chunk")
        XCTAssertLessThanOrEqual(command.longestChunk, 4096)
        XCTAssertEqual(try Zlib.uncompress(command.payload, maximumLength: image.rgb.count), image.rgb)
    }

    func testOneDeflaterKeptFromFrameToFrameInflatesToEachFrame() throws {
        // The play screen keeps one stream: every frame must still be a whole zlib stream of its own.
        let deflater = try ZlibDeflater(level: 1)
        var generator = SeededGenerator(seed: 15)
        let frames = try [(256, 240, 25), (16, 3, 2), (256, 384, 60), (1, 1, 1)].map { width, height, colors in
            try TestFrame.random(width: width, height: height, paletteSize: colors, using: &generator)
                .withSource { PixelImage($0, region: $0.bounds) }
        }
        for image in frames + frames.reversed() {
            var bytes: [UInt8] = []
            try KittyGraphicsEncoder.place(image, imageID: 7_101, placementID: 1, cells: CellRect(x: 0, y: 0, columns: 32, rows: 16),
                                           transport: .direct(compressed: true), deflater: deflater, into: &bytes)
            let command = try XCTUnwrap(KittyCommand.parse(bytes).first)
            XCTAssertEqual(command.keys["s"], "\(image.width)")
            XCTAssertLessThanOrEqual(command.longestChunk, 4096)
            XCTAssertEqual(try Zlib.uncompress(command.payload, maximumLength: image.rgb.count), image.rgb)
        }
    }

    func testChunksSplitTheBase64OnWholeGroups() throws {
        // 3072 payload bytes are exactly one 4096-byte chunk; one byte more starts a second.
        for count in [3071, 3072, 3073, 6144, 6145] {
            let image = PixelImage(width: count, height: 1, rgb: (0..<(count * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            var bytes: [UInt8] = []
            try KittyGraphicsEncoder.place(image, imageID: 5, placementID: 1, cells: CellRect(x: 0, y: 0, columns: 1, rows: 1),
                                           transport: .direct(compressed: false), into: &bytes)
            let command = try XCTUnwrap(KittyCommand.parse(bytes).first)
            XCTAssertEqual(command.payload, image.rgb, "\(count) pixels")
            XCTAssertEqual(command.chunkCount, (count * 3 + 3071) / 3072, "\(count) pixels")
            XCTAssertLessThanOrEqual(command.longestChunk, 4096)
        }
    }

    func testUncompressedAndFilePayloads() throws {
        let image = PixelImage(width: 2, height: 1, rgb: [1, 2, 3, 250, 251, 252])
        var direct: [UInt8] = []
        try KittyGraphicsEncoder.place(image, imageID: 5, placementID: 1, cells: CellRect(x: 0, y: 0, columns: 1, rows: 1),
                                       transport: .direct(compressed: false), into: &direct)
        let plain = try XCTUnwrap(KittyCommand.parse(direct).first)
        XCTAssertEqual(plain.payload, image.rgb)
        XCTAssertNil(plain.keys["o"])
        XCTAssertEqual(plain.chunkCount, 1)

        var file: [UInt8] = []
        try KittyGraphicsEncoder.place(image, imageID: 5, placementID: 1, cells: CellRect(x: 0, y: 0, columns: 1, rows: 1),
                                       transport: .temporaryFile(path: "/dev/shm/x-tty-graphics-protocol.rgb"), into: &file)
        let viaFile = try XCTUnwrap(KittyCommand.parse(file).first)
        XCTAssertEqual(viaFile.keys["t"], "t")
        XCTAssertEqual(String(decoding: viaFile.payload, as: UTF8.self), "/dev/shm/x-tty-graphics-protocol.rgb")
    }

    func testFrameFileHoldsThePixelsUnderANameKittyAccepts() throws {
        let files = KittyFrameFile()
        let path = try XCTUnwrap(files.write([9, 8, 7]))
        defer { files.remove(path) }
        XCTAssertTrue(path.contains("tty-graphics-protocol"))
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), [9, 8, 7])
        XCTAssertNotEqual(files.write([1]).map { p in files.remove(p); return p }, path, "each frame gets a new file")
    }

    func testDeleteFreesTheImageData() throws {
        let command = try XCTUnwrap(KittyCommand.parse(KittyGraphicsEncoder.delete(imageID: 7_101)).first)
        XCTAssertEqual(command.keys, ["a": "d", "d": "I", "i": "7101", "q": "2"])
    }

    func testPixelImageCropsAndDecodesEveryFormat() throws {
        // RGB565: pure red, green, blue and white in a 2x2 frame with row padding.
        let frame = TestFrame(width: 2, height: 2, format: .rgb565, padding: 6, values: [0xF800, 0x07E0, 0x001F, 0xFFFF])
        let image = try frame.withSource { PixelImage($0, region: PixelRect(x: 1, y: 0, width: 5, height: 2)) }
        XCTAssertEqual(image.width, 1, "clipped to the frame")
        XCTAssertEqual(image.rgb, [0, 255, 0, 255, 255, 255])
    }
}

extension KittyGraphicsEncoderTests {
    func testLeftoverFramesAreRemovedAtTheEnd() throws {
        let files = KittyFrameFile(processID: 999_999)
        let paths = try [files.write([1, 2, 3]), files.write([4, 5, 6])].map { try XCTUnwrap($0) }
        let other = try XCTUnwrap(KittyFrameFile(processID: 999_998).write([7, 8, 9]))
        defer { try? FileManager.default.removeItem(atPath: other) }
        files.removeLeftovers()
        XCTAssertFalse(paths.contains { FileManager.default.fileExists(atPath: $0) })
        XCTAssertTrue(FileManager.default.fileExists(atPath: other), "another process's frames are not ours")
    }
}
