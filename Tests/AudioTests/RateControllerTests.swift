import PhosphorKit
import XCTest
@testable import Audio

final class RateControllerTests: XCTestCase {
    func testAdjustmentIsOneAtHalfFullAndSaturatesAtHalfAPercent() {
        let controller = RateController(bufferFrames: 3072)
        XCTAssertEqual(controller.targetFill, 1536)
        XCTAssertEqual(controller.adjustment(forFill: 1536), 1, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(forFill: 0), 1.005, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(forFill: 3072), 0.995, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(forFill: 1152), 1.005, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(forFill: 1344), 1.0025, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(forFill: 1728), 0.9975, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(forFill: 100_000), 0.995, accuracy: 1e-12)
        // Emptier always means at least as much output per input.
        var previous = Double.infinity
        for fill in stride(from: 0, through: 3072, by: 16) {
            let adjustment = controller.adjustment(forFill: fill)
            XCTAssertLessThanOrEqual(adjustment, previous)
            previous = adjustment
        }
    }

    func testPlanWritesUpToTheTargetAndReadsTheMatchingInput() {
        let controller = RateController(bufferFrames: 3072)
        let nominal = 48000.0 / 32768.0
        XCTAssertEqual(controller.plan(forFill: 1536, nominalRatio: nominal),
                       RateController.Plan(outputFrames: 0, ratio: nominal, inputFrames: 0))
        XCTAssertEqual(controller.plan(forFill: 2000, nominalRatio: nominal).outputFrames, 0)
        // Enough input to top up: the ratio is the nominal one (the fill after the write is the target).
        let plan = controller.plan(forFill: 1136, nominalRatio: nominal, availableInputFrames: 10_000)
        XCTAssertEqual(plan.outputFrames, 400)
        XCTAssertEqual(plan.ratio, nominal, accuracy: 1e-12)
        XCTAssertEqual(plan.inputFrames, Int((400 / nominal).rounded(.up)))
        // The ring runs short: everything it has is read, stretched by up to 0.5%.
        let short = controller.plan(forFill: 1136, nominalRatio: nominal, availableInputFrames: 100)
        XCTAssertEqual(short.inputFrames, 100)
        XCTAssertEqual(short.ratio, nominal * controller.adjustment(forFill: 1136 + Int(100 * nominal)), accuracy: 1e-12)
        XCTAssertGreaterThan(short.ratio, nominal)
        // An empty ring reads nothing.
        XCTAssertEqual(controller.plan(forFill: 0, nominalRatio: nominal, availableInputFrames: 0).inputFrames, 0)
    }

    // MARK: Ten simulated minutes

    /// What a simulated session saw after its first second.
    struct SessionReport {
        var underruns = 0
        var minimumFill = Int.max
        var maximumFill = 0
        var maximumRingCount = 0
        var ringDropped = 0
        var coreFrames = 0
        var clockSource = PlaybackClock.Source.device
        var averageFillSecondMinute = 0.0
        var averageFillLastMinute = 0.0
    }

    /// Simulates, in 1 ms steps, the core thread (60 fps at 32768 Hz, waiting above `ringHighWater`),
    /// the audio thread (a tick every 8 ms: PlaybackClock → RateController → ring → ideal resampler)
    /// and a device whose clock is `skew` fast (0.003 = 0.3%). `instantDevice` models ALSA's null/file
    /// PCMs: everything written is consumed at once and snd_pcm_delay always says 0.
    func simulate(skew: Double, minutes: Int = 10, instantDevice: Bool = false) -> SessionReport {
        let sourceRate = 32768.0, deviceRate = 48000.0, fps = 60.0
        let bufferFrames = 3072
        let controller = RateController(bufferFrames: bufferFrames)
        var clock = PlaybackClock(rate: deviceRate, bufferFrames: bufferFrames)
        let ring = SampleRing(minimumCapacity: 16384)
        let highWater = AudioOutput.ringHighWater(sourceRate: sourceRate)
        let frameBuffer = [Int16](repeating: 0, count: 4096)
        var readBuffer = [Int16](repeating: 0, count: 8192)

        var report = SessionReport()
        var nextCoreFrame = 0.0
        var sourceFramesOwed = 0.0
        var outputOwed = 0.0
        var written = 0.0, consumed = 0.0
        var started = false, dry = false
        var fillSumSecond = 0.0, fillSumLast = 0.0, fillCountSecond = 0.0, fillCountLast = 0.0
        let totalMilliseconds = minutes * 60_000

        for millisecond in 0..<totalMilliseconds {
            let now = Double(millisecond) / 1000

            // Core thread: a frame when its clock says so and the ring is not above the high-water mark.
            if now >= nextCoreFrame && ring.count <= highWater {
                sourceFramesOwed += sourceRate / fps
                let frames = Int(sourceFramesOwed)
                sourceFramesOwed -= Double(frames)
                frameBuffer.withUnsafeBufferPointer { _ = ring.write(UnsafeBufferPointer(rebasing: $0[0..<(frames * 2)])) }
                report.coreFrames += 1
                nextCoreFrame += 1 / fps
                if nextCoreFrame < now - 1 / fps { nextCoreFrame = now }
            }
            report.maximumRingCount = max(report.maximumRingCount, ring.count)

            // Device: plays in real time by its own (skewed) clock once started.
            if instantDevice {
                consumed = written
            } else if started {
                consumed += deviceRate * (1 + skew) / 1000
                if consumed > written {
                    consumed = written
                    if !dry { report.underruns += 1; dry = true }
                }
            }

            // Audio thread tick.
            guard millisecond % 8 == 0 else { continue }
            let delay = Int(written - consumed)
            let (fill, ranDry) = clock.fill(at: now, reportedDelay: delay)
            if ranDry && millisecond > 1000 { report.underruns += 1 }
            if millisecond > 1000 {
                report.minimumFill = min(report.minimumFill, fill)
                report.maximumFill = max(report.maximumFill, fill)
            }
            if millisecond >= 60_000 && millisecond < 120_000 { fillSumSecond += Double(fill); fillCountSecond += 1 }
            if millisecond >= totalMilliseconds - 60_000 { fillSumLast += Double(fill); fillCountLast += 1 }

            let plan = controller.plan(forFill: fill, nominalRatio: deviceRate / sourceRate,
                                       availableInputFrames: min(ring.count / 2, readBuffer.count / 2))
            let framesToRead = plan.inputFrames
            guard framesToRead > 0 else { continue }
            let samples = readBuffer.withUnsafeMutableBufferPointer {
                ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(framesToRead * 2)]))
            }
            outputOwed += Double(samples / 2) * plan.ratio
            let outputFrames = Int(outputOwed)
            outputOwed -= Double(outputFrames)
            written += Double(outputFrames)
            clock.didWrite(outputFrames, at: now)
            dry = false
            if !started && Int(written) >= controller.targetFill { started = true }
        }
        report.ringDropped = ring.dropped
        report.clockSource = clock.source
        report.averageFillSecondMinute = fillSumSecond / max(1, fillCountSecond)
        report.averageFillLastMinute = fillSumLast / max(1, fillCountLast)
        return report
    }

    func testDeviceThreeTenthsOfAPercentFastNeverUnderrunsOrDrifts() {
        let report = simulate(skew: 0.003)
        XCTAssertEqual(report.underruns, 0)
        XCTAssertEqual(report.clockSource, .device)
        XCTAssertGreaterThan(report.minimumFill, 256, "keeps a safety margin: \(report)")
        XCTAssertLessThanOrEqual(report.maximumFill, 3072)
        XCTAssertEqual(report.ringDropped, 0)
        // Latency settles and stays put: the last minute looks like the second.
        XCTAssertEqual(report.averageFillLastMinute, report.averageFillSecondMinute, accuracy: 100, "\(report)")
        // The core kept its own 60 fps (the device is the faster clock here).
        XCTAssertEqual(Double(report.coreFrames), 36_000, accuracy: 36)
    }

    func testDeviceThreeTenthsOfAPercentSlowNeverUnderrunsAndPacesTheCore() {
        let report = simulate(skew: -0.003)
        XCTAssertEqual(report.underruns, 0)
        XCTAssertEqual(report.clockSource, .device)
        XCTAssertGreaterThan(report.minimumFill, 256, "\(report)")
        XCTAssertLessThanOrEqual(report.maximumFill, 3072)
        XCTAssertEqual(report.ringDropped, 0)
        XCTAssertLessThanOrEqual(report.maximumRingCount, AudioOutput.ringHighWater(sourceRate: 32768) + 1100)
        XCTAssertEqual(report.averageFillLastMinute, report.averageFillSecondMinute, accuracy: 100, "\(report)")
        // Audio is the clock: the core ran 0.3% slower than its nominal 60 fps.
        XCTAssertEqual(Double(report.coreFrames), 36_000 * 0.997, accuracy: 36)
    }

    func testInstantDeviceIsPacedByTheMonotonicClock() {
        let report = simulate(skew: 0, minutes: 2, instantDevice: true)
        XCTAssertEqual(report.clockSource, .monotonic)
        XCTAssertEqual(report.underruns, 0)
        XCTAssertGreaterThan(report.minimumFill, 256, "\(report)")
        XCTAssertEqual(report.ringDropped, 0)
        XCTAssertEqual(Double(report.coreFrames), 7_200, accuracy: 10)
    }
}
