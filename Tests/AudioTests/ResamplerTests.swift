import XCTest
@testable import Audio

final class ResamplerTests: XCTestCase {
    /// Feeds `samples` in blocks of `block` frames, then flushes.
    private func resampleAll(_ samples: [Int16], with resampler: Resampler, block: Int = 547) throws -> [Int16] {
        var output: [Int16] = []
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + block * 2)
            output += try resampler.process(Array(samples[start..<end]))
            start = end
        }
        output += try resampler.flush()
        return output
    }

    func testOneSecondAt32768HzBecomesExactly48000Frames() throws {
        let input = ToneAnalysis.sine(frequency: 440, rate: 32768, frames: 32768, amplitude: 10000)
        let output = try resampleAll(input, with: Resampler(sourceRate: 32768, targetRate: 48000))
        XCTAssertEqual(output.count, 48000 * 2)
    }

    func testNESRateLengthIsRoundedInputTimesRatio() throws {
        let input = [Int16](repeating: 0, count: 32040 * 2)
        let output = try resampleAll(input, with: Resampler(sourceRate: 32040.5, targetRate: 48000))
        XCTAssertEqual(output.count / 2, Int((32040.0 * 48000 / 32040.5).rounded()))
        XCTAssertEqual(output.count / 2, 47999)
    }

    func testToneKeepsItsFrequencyAndLevel() throws {
        for quality in ResamplerQuality.allCases {
            let input = ToneAnalysis.sine(frequency: 1000, rate: 44100, frames: 44100, amplitude: 12000)
            let output = try resampleAll(input, with: Resampler(sourceRate: 44100, targetRate: 48000, quality: quality))
            let tone = Array(ToneAnalysis.left(output)[2000..<46000])
            let frequency = try XCTUnwrap(ToneAnalysis.frequency(of: tone, rate: 48000))
            XCTAssertEqual(frequency, 1000, accuracy: 1, "\(quality)")
            XCTAssertEqual(ToneAnalysis.rms(of: tone), 12000 / 2.0.squareRoot(), accuracy: 12000 * 0.02, "\(quality)")
        }
    }

    func testSilenceStaysSilent() throws {
        let output = try resampleAll([Int16](repeating: 0, count: 20000), with: Resampler(sourceRate: 32768, targetRate: 48000))
        XCTAssertFalse(output.isEmpty)
        XCTAssertTrue(output.allSatisfy { $0 == 0 })
    }

    func testSincRemovesWhatLinearAliases() throws {
        // A 20 kHz tone cannot exist at 32768 Hz (Nyquist 16384 Hz): a band-limited converter drops it,
        // linear interpolation folds it back down as a 12.8 kHz alias.
        let input = ToneAnalysis.sine(frequency: 20000, rate: 48000, frames: 48000, amplitude: 16000)
        let sinc = try resampleAll(input, with: Resampler(sourceRate: 48000, targetRate: 32768, quality: .sincFastest))
        let linear = try resampleAll(input, with: Resampler(sourceRate: 48000, targetRate: 32768, quality: .linear))
        let sincLevel = ToneAnalysis.rms(of: Array(ToneAnalysis.left(sinc)[2000..<30000]))
        let linearLevel = ToneAnalysis.rms(of: Array(ToneAnalysis.left(linear)[2000..<30000]))
        XCTAssertLessThan(sincLevel, 16000 * 0.05, "sinc lets \(sincLevel) RMS through")
        XCTAssertGreaterThan(linearLevel, 16000 * 0.2, "linear aliases \(linearLevel) RMS")
    }

    func testChangingRatesMidStreamChangesTheOutputRate() throws {
        let resampler = try Resampler(sourceRate: 32768, targetRate: 48000)
        let block = [Int16](repeating: 0, count: 32768 * 2)
        let first = try resampler.process(block)
        try resampler.setRates(source: 48000, target: 48000)
        XCTAssertEqual(resampler.ratio, 1)
        let second = try resampler.process(block) + (try resampler.flush())
        // 32768 frames at 48000/32768 plus 32768 frames at 1: 48000 + 32768 frames in all, give or
        // take the few frames inside the filter when the rate changed.
        XCTAssertEqual(Double(first.count + second.count) / 2, 48000 + 32768, accuracy: 16)
    }

    func testFlushThenNewRateContinuesAtTheNewRate() throws {
        // What `--audio-wav` does on SET_SYSTEM_AV_INFO: flush the old rate's tail, switch, go on.
        let resampler = try Resampler(sourceRate: 32768, targetRate: 48000)
        var output = try resampleAll(ToneAnalysis.sine(frequency: 440, rate: 32768, frames: 16384, amplitude: 9000),
                                     with: resampler, block: 546)
        XCTAssertEqual(output.count, 24000 * 2)
        try resampler.setRates(source: 44100, target: 48000)
        output += try resampleAll(ToneAnalysis.sine(frequency: 440, rate: 44100, frames: 22050, amplitude: 9000),
                                  with: resampler, block: 735)
        XCTAssertEqual(output.count, 48000 * 2)
        let left = ToneAnalysis.left(output)
        for half in [Array(left[1000..<23000]), Array(left[25000..<47000])] {
            XCTAssertEqual(try XCTUnwrap(ToneAnalysis.frequency(of: half, rate: 48000)), 440, accuracy: 1)
            XCTAssertEqual(ToneAnalysis.rms(of: half), 9000 / 2.0.squareRoot(), accuracy: 9000 * 0.02)
        }
    }

    func testImpossibleRatesAreRefused() {
        XCTAssertThrowsError(try Resampler(sourceRate: 0, targetRate: 48000)) { error in
            XCTAssertEqual("\(error)", "audio: invalid sample rate 0.0 Hz")
        }
        XCTAssertThrowsError(try Resampler(sourceRate: .nan, targetRate: 48000))
        XCTAssertThrowsError(try Resampler(sourceRate: 48000 * 1000, targetRate: 48000))
        XCTAssertThrowsError(try Resampler(sourceRate: 32768, targetRate: -1))
    }
}
