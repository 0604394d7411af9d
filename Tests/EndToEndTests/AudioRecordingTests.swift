import Foundation
import XCTest

/// `--audio-wav`: what the core played, resampled to 48 kHz, as a WAV file (issue: sound).
final class AudioRecordingTests: XCTestCase {
    var phosphor: PhosphorProcess!

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() { phosphor.cleanUp() }

    struct WAV {
        var sampleRate: Int
        var channels: Int
        var samples: [Int16]  // interleaved

        init(sampleRate: Int, channels: Int, samples: [Int16]) {
            self.sampleRate = sampleRate
            self.channels = channels
            self.samples = samples
        }

        init(_ data: Data) throws {
            let bytes = [UInt8](data)
            func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            XCTAssertEqual(Array(bytes[0..<4]), Array("RIFF".utf8))
            XCTAssertEqual(Array(bytes[8..<16]), Array("WAVEfmt ".utf8))
            XCTAssertEqual(u32(4), bytes.count - 8, "RIFF length")
            XCTAssertEqual(u16(20), 1, "PCM")
            channels = u16(22)
            sampleRate = u32(24)
            XCTAssertEqual(u16(34), 16, "bits per sample")
            XCTAssertEqual(Array(bytes[36..<40]), Array("data".utf8))
            let length = u32(40)
            XCTAssertEqual(length, bytes.count - 44, "data length")
            samples = stride(from: 44, to: 44 + length - 1, by: 2).map { Int16(bitPattern: UInt16(u16($0))) }
        }

        /// Frequency of the left channel from rising zero crossings (a square wave has two a period).
        func frequency(from start: Int) -> Double {
            let left = stride(from: start * channels, to: samples.count, by: channels).map { samples[$0] }
            var crossings: [Int] = []
            for i in 1..<left.count where left[i - 1] < 0 && left[i] >= 0 { crossings.append(i) }
            guard crossings.count > 2 else { return 0 }
            let periods = Double(crossings.count - 1)
            return Double(sampleRate) * periods / Double(crossings.last! - crossings.first!)
        }
    }

    private func record(_ rom: String, frames: Int, input: String) throws -> WAV {
        let wav = phosphor.home.appendingPathComponent("out.wav")
        let script = try phosphor.file("in.txt", Data(input.utf8))
        let outcome = try phosphor.run(["run", "--headless", "--frames", "\(frames)", "--input", script.path,
                                        "--audio-wav", wav.path, PhosphorProcess.rom(rom).path])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        return try WAV(Data(contentsOf: wav))
    }

    func testToneWhileAIsHeldHasTheCartridgesFrequency() throws {
        for (rom, hertz) in [("gb/phosphor-test.gbc", 439.84), ("nes/phosphor-test.nes", 440.40)] {
            let wav = try record(rom, frames: 180, input: "0 a\n")
            XCTAssertEqual(wav.sampleRate, 48_000)
            XCTAssertEqual(wav.channels, 2)
            // ~3 s at 48 kHz (the core's fps is ~59.7–60.1).
            XCTAssertEqual(Double(wav.samples.count / 2), 180 / 60.0 * 48_000, accuracy: 48_000 * 0.05)
            let measured = wav.frequency(from: 24_000)  // skip the first half second
            XCTAssertEqual(measured, hertz, accuracy: hertz * 0.01, rom)
            let peak = wav.samples.suffix(48_000).map { abs(Int($0)) }.max() ?? 0
            XCTAssertGreaterThan(peak, 2_000, "\(rom): an audible level")
        }
    }

    func testSilentWhenNothingIsPlayed() throws {
        let wav = try record("gb/phosphor-test.gbc", frames: 120, input: "0 -\n")
        XCTAssertGreaterThan(wav.samples.count, 48_000)
        // The APU's power-on click fades within a quarter second; after half a second: silence.
        let peak = wav.samples.dropFirst(48_000).map { abs(Int($0)) }.max() ?? 0
        XCTAssertEqual(peak, 0, "no sound without A")
    }
}

/// The sound a player hears: `phosphor play` through the real ALSA library into a `file` PCM
/// (no sound card needed), with A held by the hold-button key (issue: sound).
final class ALSAPlaybackTests: XCTestCase {
    func testHeldAPlaysTheCartridgeToneThroughALSA() throws {
        let phosphor = try PhosphorProcess()
        defer { phosphor.cleanUp() }
        let raw = phosphor.home.appendingPathComponent("out.raw")
        let session = try TmuxSession(
            arguments: ["play", "--frames", "300", "--audio-device", "file:FILE=\(raw.path),FORMAT=raw",
                        PhosphorProcess.rom("gb/phosphor-test.gbc").path],
            home: phosphor.home)
        defer { session.stop() }
        try session.waitFor(text: "fps")
        try session.send("h")
        try session.send("x")  // hold A: the cartridge plays its tone for the rest of the run
        XCTAssertEqual(try session.waitForExit(timeout: 30), 0)
        let bytes = try Data(contentsOf: raw)
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        let wav = AudioRecordingTests.WAV(sampleRate: 48_000, channels: 2, samples: samples)
        XCTAssertGreaterThan(samples.count, 48_000 * 2, "over a second of sound reached ALSA")
        // The last second holds the tone (A was held well before it).
        let lastSecond = AudioRecordingTests.WAV(sampleRate: 48_000, channels: 2, samples: Array(samples.suffix(96_000)))
        XCTAssertEqual(lastSecond.frequency(from: 0), 439.84, accuracy: 439.84 * 0.01)
        XCTAssertGreaterThan(wav.samples.suffix(96_000).map { abs(Int($0)) }.max() ?? 0, 2_000)
    }
}
