import Foundation
import XCTest
@testable import Audio

final class WAVWriterTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try makeScratchFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    private func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func testHeaderFieldsAndSampleBytes() throws {
        let url = folder.appendingPathComponent("tone.wav")
        let writer = try WAVWriter(url: url, sampleRate: 48000)
        let samples: [Int16] = [1, -1, 0x1234, -0x1234, .max, .min]
        try writer.append(samples)
        try writer.append([7])  // an odd trailing sample is not a frame
        try writer.finish()
        let bytes = [UInt8](try Data(contentsOf: url))
        XCTAssertEqual(bytes.count, 44 + 3 * 4)
        XCTAssertEqual(String(decoding: bytes[0..<4], as: UTF8.self), "RIFF")
        XCTAssertEqual(u32(bytes, 4), UInt32(bytes.count - 8))
        XCTAssertEqual(String(decoding: bytes[8..<16], as: UTF8.self), "WAVEfmt ")
        XCTAssertEqual(u32(bytes, 16), 16)
        XCTAssertEqual(u16(bytes, 20), 1, "PCM")
        XCTAssertEqual(u16(bytes, 22), 2, "stereo")
        XCTAssertEqual(u32(bytes, 24), 48000)
        XCTAssertEqual(u32(bytes, 28), 48000 * 4)
        XCTAssertEqual(u16(bytes, 32), 4)
        XCTAssertEqual(u16(bytes, 34), 16)
        XCTAssertEqual(String(decoding: bytes[36..<40], as: UTF8.self), "data")
        XCTAssertEqual(u32(bytes, 40), 12)
        XCTAssertEqual(Array(bytes[44...]), [0x01, 0x00, 0xFF, 0xFF, 0x34, 0x12, 0xCC, 0xED, 0xFF, 0x7F, 0x00, 0x80])
        XCTAssertEqual(writer.frameCount, 3)
    }

    func testOneSecondOfSilentCoreAudioIsA48kHzSilentWAV() throws {
        // What `--audio-wav` does with a core that makes no sound: 60 frames of 546 samples at 32768 Hz.
        let url = folder.appendingPathComponent("silent.wav")
        let resampler = try Resampler(sourceRate: 32768, targetRate: 48000)
        let writer = try WAVWriter(url: url)
        for frame in 0..<60 {
            let frames = (frame + 1) * 32768 / 60 - frame * 32768 / 60
            try writer.append(try resampler.process([Int16](repeating: 0, count: frames * 2)))
        }
        try writer.append(try resampler.flush())
        try writer.finish()
        let bytes = [UInt8](try Data(contentsOf: url))
        XCTAssertEqual(u32(bytes, 40), 48000 * 4)
        XCTAssertEqual(bytes.count, 44 + 48000 * 4)
        XCTAssertTrue(bytes[44...].allSatisfy { $0 == 0 })
        try assertSoxAgrees(url, frames: 48000)
    }

    func testNothingAppearsUntilFinishAndAnOldFileSurvivesAnAbandonedWriter() throws {
        let url = folder.appendingPathComponent("keep.wav")
        try Data("old recording".utf8).write(to: url)
        do {
            let writer = try WAVWriter(url: url)
            try writer.append([1, 2, 3, 4])
            XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "old recording")
        }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "old recording")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "keep.wav" }
        XCTAssertEqual(leftovers, [], "the abandoned temporary file is removed")
    }

    func testUnwritableFolderGivesOneLineNamingTheFile() throws {
        let blocker = folder.appendingPathComponent("not-a-folder")
        try Data().write(to: blocker)
        let url = blocker.appendingPathComponent("x.wav")
        XCTAssertThrowsError(try WAVWriter(url: url)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("audio: cannot write WAV '\(url.path)': "), message)
            XCTAssertFalse(message.contains("\n"))
        }
    }

    func testFinishTwiceIsAnError() throws {
        let writer = try WAVWriter(url: folder.appendingPathComponent("twice.wav"))
        try writer.finish()
        XCTAssertThrowsError(try writer.finish())
        XCTAssertThrowsError(try writer.append([1, 1]))
    }

    /// sox's own reader agrees on format and length (skipped if sox is not installed).
    private func assertSoxAgrees(_ url: URL, frames: Int) throws {
        let soxi = "/usr/bin/soxi"
        guard FileManager.default.isExecutableFile(atPath: soxi) else { throw XCTSkip("soxi not installed") }
        func ask(_ flag: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: soxi)
            process.arguments = [flag, url.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try ask("-s"), "\(frames)")
        XCTAssertEqual(try ask("-r"), "48000")
        XCTAssertEqual(try ask("-c"), "2")
        XCTAssertEqual(try ask("-b"), "16")
    }
}
