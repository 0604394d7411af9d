import Foundation
import Glibc
import PhosphorKit
import XCTest
@testable import Audio

/// Through the real libasound, with the `file` PCM standing in for a sound card.
final class AudioOutputTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeScratchFolder()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func fileDevice(_ name: String) -> (device: String, url: URL) {
        let url = folder.appendingPathComponent(name)
        return ("file:FILE=\(url.path),FORMAT=raw", url)
    }

    /// Waits (up to `timeout` seconds) until the audio thread has taken everything from the ring,
    /// then a little longer so the resampler's tail reaches the device.
    private func waitUntilDrained(_ ring: SampleRing, timeout: Double = 10) {
        let deadline = Date().addingTimeInterval(timeout)
        while ring.count > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
    }

    private func play(_ samples: [Int16], sourceRate: Double, configure: (AudioOutput) -> Void = { _ in })
        throws -> (recorded: [Int16], output: AudioOutput) {
        let (device, url) = fileDevice("out-\(UUID().uuidString.prefix(6)).raw")
        let output = try AudioOutput(device: device, latency: .milliseconds(64))
        configure(output)
        let ring = SampleRing(minimumCapacity: samples.count)
        samples.withUnsafeBufferPointer { XCTAssertEqual(ring.write($0), samples.count) }
        try output.start(ring: ring, sourceRate: sourceRate)
        waitUntilDrained(ring)
        output.stop()
        return (try ToneAnalysis.readRaw(url), output)
    }

    func testSineAt32768HzComesOutAt440HzAnd48kHz() throws {
        let input = ToneAnalysis.sine(frequency: 440, rate: 32768, frames: 32768, amplitude: 16000)
        let (recorded, output) = try play(input, sourceRate: 32768)
        XCTAssertEqual(output.bufferFrames % output.periodFrames, 0)
        // One second of input is about one second (48000 frames) of output.
        let frames = recorded.count / 2
        XCTAssertGreaterThan(frames, 47_000)
        XCTAssertLessThan(frames, 49_500)
        let tone = ToneAnalysis.activeRegion(ToneAnalysis.left(recorded), margin: 2048)
        let frequency = try XCTUnwrap(ToneAnalysis.frequency(of: tone, rate: 48000))
        XCTAssertEqual(frequency, 440, accuracy: 4.4, "recorded \(frequency) Hz")
        XCTAssertEqual(ToneAnalysis.rms(of: tone), 16000 / 2.0.squareRoot(), accuracy: 16000 * 0.03)
        // Left and right stay equal (no channel swap or frame slip).
        for index in stride(from: 0, to: recorded.count - 1, by: 2) where recorded[index] != recorded[index + 1] {
            XCTFail("frame \(index / 2): left \(recorded[index]) right \(recorded[index + 1])")
            break
        }
        XCTAssertEqual(output.underruns, 0)
    }

    func testVolumeHalvesTheLevelAndMuteSilences() throws {
        let input = ToneAnalysis.sine(frequency: 1000, rate: 44100, frames: 22050, amplitude: 20000)
        let (half, _) = try play(input, sourceRate: 44100) { $0.volume = 0.5 }
        let halfTone = ToneAnalysis.activeRegion(ToneAnalysis.left(half), margin: 1024)
        XCTAssertEqual(ToneAnalysis.rms(of: halfTone), 10000 / 2.0.squareRoot(), accuracy: 10000 * 0.03)

        let (muted, _) = try play(input, sourceRate: 44100) { $0.setMuted(true) }
        XCTAssertGreaterThan(muted.count, 20_000 * 2, "muted sound still plays (as silence)")
        XCTAssertTrue(muted.allSatisfy { $0 == 0 })
    }

    func testSourceRateChangeIsHonoured() throws {
        let (device, url) = fileDevice("rate.raw")
        let output = try AudioOutput(device: device)
        let ring = SampleRing(minimumCapacity: 65536)
        try output.start(ring: ring, sourceRate: 32768)
        try output.setSourceRate(44100)
        XCTAssertEqual(output.ringHighWater, AudioOutput.ringHighWater(sourceRate: 44100))
        Thread.sleep(forTimeInterval: 0.05)  // let the audio thread pick up the new rate
        let input = ToneAnalysis.sine(frequency: 440, rate: 44100, frames: 22050, amplitude: 12000)
        input.withUnsafeBufferPointer { _ = ring.write($0) }
        waitUntilDrained(ring)
        output.stop()
        let tone = ToneAnalysis.activeRegion(ToneAnalysis.left(try ToneAnalysis.readRaw(url)), margin: 1024)
        // Played at the old rate it would come out at 592 Hz.
        let frequency = try XCTUnwrap(ToneAnalysis.frequency(of: tone, rate: 48000))
        XCTAssertEqual(frequency, 440, accuracy: 4.4)
        XCTAssertThrowsError(try output.setSourceRate(0)) { error in
            XCTAssertEqual("\(error)", "audio: invalid sample rate 0.0 Hz")
        }
    }

    func testMutedFastForwardDiscardsTheRingAndReturnsToSoundAt1x() throws {
        let (device, url) = fileDevice("ff.raw")
        let output = try AudioOutput(device: device, fastForward: .muted)
        output.setSpeed(4)
        let ring = SampleRing(minimumCapacity: 65536)
        let loud = ToneAnalysis.sine(frequency: 440, rate: 32768, frames: 16384, amplitude: 30000)
        loud.withUnsafeBufferPointer { _ = ring.write($0) }
        try output.start(ring: ring, sourceRate: 32768)
        waitUntilDrained(ring, timeout: 2)
        XCTAssertEqual(ring.count, 0, "fast-forward must never leave the core waiting")
        let silentSoFar = try ToneAnalysis.readRaw(url)
        XCTAssertGreaterThan(silentSoFar.count, 0, "the device is kept fed with silence")
        XCTAssertTrue(silentSoFar.allSatisfy { $0 == 0 }, "fast-forward is muted")

        output.setSpeed(1)
        Thread.sleep(forTimeInterval: 0.05)
        let quiet = ToneAnalysis.sine(frequency: 440, rate: 32768, frames: 16384, amplitude: 8000)
        quiet.withUnsafeBufferPointer { _ = ring.write($0) }
        waitUntilDrained(ring)
        output.stop()
        let tone = ToneAnalysis.activeRegion(ToneAnalysis.left(try ToneAnalysis.readRaw(url)), margin: 1024)
        XCTAssertEqual(try XCTUnwrap(ToneAnalysis.frequency(of: tone, rate: 48000)), 440, accuracy: 4.4)
        // Only the 1x tone is heard: the loud fast-forward sound never reached the device.
        XCTAssertLessThanOrEqual(tone.map(abs).max() ?? 0, 8001)
    }

    func testSpedUpFastForwardRaisesThePitch() throws {
        let input = ToneAnalysis.sine(frequency: 440, rate: 32768, frames: 32768, amplitude: 12000)
        let (recorded, _) = try play(input, sourceRate: 32768) {
            $0.fastForwardAudio = .spedUp
            $0.setSpeed(2)
        }
        let tone = ToneAnalysis.activeRegion(ToneAnalysis.left(recorded), margin: 1024)
        XCTAssertEqual(try XCTUnwrap(ToneAnalysis.frequency(of: tone, rate: 48000)), 880, accuracy: 8.8)
        // Twice as fast: half a second of output for a second of input.
        XCTAssertEqual(Double(recorded.count / 2), 24000, accuracy: 1500)
    }

    func testNullDeviceOpensAndStopsCleanly() throws {
        let output = try AudioOutput(device: "null")
        XCTAssertGreaterThan(output.bufferFrames, 0)
        // 64 ms at 48 kHz, as ALSA grants it.
        XCTAssertEqual(Double(output.bufferFrames), 3072, accuracy: 1024)
        let ring = SampleRing(minimumCapacity: 8192)
        try output.start(ring: ring, sourceRate: 32040.5)
        Thread.sleep(forTimeInterval: 0.05)
        output.stop()
        output.stop()
        XCTAssertGreaterThan(output.threadCPUTime, .zero)
    }

    func testStopBeforeStartClosesTheDeviceAndStartAfterStopIsIgnored() throws {
        let (device, url) = fileDevice("unused.raw")
        let output = try AudioOutput(device: device)
        output.stop()
        let ring = SampleRing(minimumCapacity: 8192)
        let tone = ToneAnalysis.sine(frequency: 440, rate: 32768, frames: 2048, amplitude: 8000)
        tone.withUnsafeBufferPointer { _ = ring.write($0) }
        try output.start(ring: ring, sourceRate: 32768)
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(ring.count, tone.count, "no audio thread reads the ring")
        XCTAssertEqual(try ToneAnalysis.readRaw(url), [])
    }

    func testLatencySetsTheDeviceBuffer() throws {
        let short = try AudioOutput(device: "null", latency: .milliseconds(40))
        let long = try AudioOutput(device: "null", latency: .milliseconds(100))
        XCTAssertEqual(Double(short.bufferFrames), 1920, accuracy: 480)
        XCTAssertEqual(Double(long.bufferFrames), 4800, accuracy: 1200)
        XCTAssertLessThan(short.bufferFrames, long.bufferFrames)
    }

    func testUnknownDeviceThrowsOneLineAndPrintsNothing() throws {
        let logURL = folder.appendingPathComponent("phosphor.log")
        try Log.shared.open(logURL)
        var thrown: Error?
        let stderrText = try capturingStandardError {
            do { _ = try AudioOutput(device: "phosphor-no-such-device") } catch { thrown = error }
        }
        let error = try XCTUnwrap(thrown as? AudioError)
        XCTAssertEqual("\(error)", "audio: cannot open ALSA device 'phosphor-no-such-device': Unknown PCM phosphor-no-such-device")
        XCTAssertEqual(stderrText, "", "libasound must not print onto the terminal")
        let log = try String(contentsOf: logURL, encoding: .utf8)
        XCTAssertTrue(log.contains("Unknown PCM phosphor-no-such-device"), log)
    }

    func testMissingSoundCardIsReportedLikeTheUnknownDevice() throws {
        // hw:9 names a card that does not exist on any machine this runs on.
        var thrown: Error?
        let stderrText = try capturingStandardError {
            do { _ = try AudioOutput(device: "hw:9") } catch { thrown = error }
        }
        let message = "\(try XCTUnwrap(thrown as? AudioError))"
        XCTAssertTrue(message.hasPrefix("audio: cannot open ALSA device 'hw:9': "), message)
        XCTAssertFalse(message.contains("\n"))
        XCTAssertEqual(stderrText, "")
    }

    /// Runs `body` with file descriptor 2 pointed at a temporary file and returns what was written.
    private func capturingStandardError(_ body: () -> Void) throws -> String {
        let url = folder.appendingPathComponent("stderr-\(UUID().uuidString.prefix(6)).txt")
        let capture = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(capture, 0)
        let saved = dup(2)
        fflush(nil)
        dup2(capture, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(capture)
        return try String(contentsOf: url, encoding: .utf8)
    }
}
