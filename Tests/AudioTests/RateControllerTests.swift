import PhosphorKit
import XCTest
@testable import Audio

final class RateControllerTests: XCTestCase {
    func testAdjustmentIsOneOnTargetAndSaturatesAtHalfAPercent() {
        let controller = RateController(bufferFrames: 3072)
        XCTAssertEqual(controller.targetFill, 1536)
        XCTAssertEqual(controller.adjustment(queued: 2000, target: 2000), 1, accuracy: 1e-12)
        // Full deviation a quarter buffer (768 frames) away, half of it at half that distance.
        XCTAssertEqual(controller.adjustment(queued: 2000 - 768, target: 2000), 1.005, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(queued: 2000 - 384, target: 2000), 1.0025, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(queued: 2000 + 384, target: 2000), 0.9975, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(queued: 0, target: 2000), 1.005, accuracy: 1e-12)
        XCTAssertEqual(controller.adjustment(queued: 100_000, target: 2000), 0.995, accuracy: 1e-12)
        // Less queued always means at least as much output per input.
        var previous = Double.infinity
        for queued in stride(from: 0.0, through: 4000, by: 16) {
            let adjustment = controller.adjustment(queued: queued, target: 2000)
            XCTAssertLessThanOrEqual(adjustment, previous)
            previous = adjustment
        }
    }

    func testPlanTopsTheDeviceUpAndSteersByEverythingQueued() {
        let controller = RateController(bufferFrames: 3072)
        let nominal = 48000.0 / 32768.0
        // At or above half full: nothing to write.
        XCTAssertEqual(controller.plan(deviceFill: 1536, ringFrames: 500, ringReserve: 500, nominalRatio: nominal),
                       RateController.Plan(outputFrames: 0, ratio: nominal, inputFrames: 0))
        XCTAssertEqual(controller.plan(deviceFill: 2000, ringFrames: 0, ringReserve: 500, nominalRatio: nominal).outputFrames, 0)
        // The ring holds exactly its reserve and the device is 400 short: nominal ratio.
        let onTarget = controller.plan(deviceFill: 1136, ringFrames: 700, ringReserve: Int(700 - 400 / nominal),
                                       nominalRatio: nominal)
        XCTAssertEqual(onTarget.outputFrames, 400)
        XCTAssertEqual(onTarget.ratio, nominal, accuracy: nominal * 1e-4)
        XCTAssertEqual(onTarget.inputFrames, Int((400 / onTarget.ratio).rounded(.up)))
        // The ring is short of its reserve: stretch (more output per input), and read no more than it has.
        let short = controller.plan(deviceFill: 1136, ringFrames: 100, ringReserve: 800, nominalRatio: nominal)
        XCTAssertEqual(short.inputFrames, 100)
        XCTAssertGreaterThan(short.ratio, nominal)
        XCTAssertLessThanOrEqual(short.ratio, nominal * 1.005 + 1e-12)
        // The ring is over its reserve (the device is slower than the core): squeeze.
        let over = controller.plan(deviceFill: 1136, ringFrames: 2000, ringReserve: 800, nominalRatio: nominal)
        XCTAssertLessThan(over.ratio, nominal)
        XCTAssertGreaterThanOrEqual(over.ratio, nominal * 0.995 - 1e-12)
        // An empty ring reads nothing.
        XCTAssertEqual(controller.plan(deviceFill: 0, ringFrames: 0, ringReserve: 800, nominalRatio: nominal).inputFrames, 0)
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

            let plan = controller.plan(deviceFill: fill, ringFrames: min(ring.count / 2, readBuffer.count / 2),
                                       ringReserve: highWater / 4, nominalRatio: deviceRate / sourceRate)
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
        XCTAssertGreaterThan(report.minimumFill, 768, "keeps a safety margin: \(report)")
        XCTAssertLessThanOrEqual(report.maximumFill, 3072)
        XCTAssertEqual(report.ringDropped, 0)
        // Latency settles and stays put: the last minute looks like the second.
        XCTAssertEqual(report.averageFillLastMinute, report.averageFillSecondMinute, accuracy: 100, "\(report)")
        // The core kept its own 60 fps (the device is the faster clock here).
        XCTAssertEqual(Double(report.coreFrames), 36_000, accuracy: 36)
    }

    func testDeviceThreeTenthsOfAPercentSlowIsAbsorbedByTheRatio() {
        let report = simulate(skew: -0.003)
        XCTAssertEqual(report.underruns, 0)
        XCTAssertEqual(report.clockSource, .device)
        XCTAssertGreaterThan(report.minimumFill, 768, "\(report)")
        XCTAssertLessThanOrEqual(report.maximumFill, 3072)
        XCTAssertEqual(report.ringDropped, 0)
        XCTAssertLessThanOrEqual(report.maximumRingCount, AudioOutput.ringHighWater(sourceRate: 32768) + 1100)
        XCTAssertEqual(report.averageFillLastMinute, report.averageFillSecondMinute, accuracy: 100, "\(report)")
        // Within the ±0.5% the ratio can bend, the core keeps its 60 fps.
        XCTAssertEqual(Double(report.coreFrames), 36_000, accuracy: 36)
    }

    func testDeviceOnePercentSlowPacesTheCoreThroughTheHighWaterMark() {
        // Beyond what the ratio can absorb, the ring reaches its high-water mark and the core waits:
        // audio is the clock.
        let report = simulate(skew: -0.01)
        XCTAssertEqual(report.underruns, 0)
        XCTAssertGreaterThan(report.minimumFill, 768, "\(report)")
        XCTAssertEqual(report.ringDropped, 0)
        XCTAssertLessThanOrEqual(report.maximumRingCount, AudioOutput.ringHighWater(sourceRate: 32768) + 1100)
        XCTAssertEqual(report.averageFillLastMinute, report.averageFillSecondMinute, accuracy: 100, "\(report)")
        // 60 fps × 0.99 / 0.995: the device's pace, with the ratio at its limit.
        XCTAssertEqual(Double(report.coreFrames), 36_000 * 0.99 / 0.995, accuracy: 40)
    }

    func testInstantDeviceIsPacedByTheMonotonicClock() {
        let report = simulate(skew: 0, minutes: 2, instantDevice: true)
        XCTAssertEqual(report.clockSource, .monotonic)
        XCTAssertEqual(report.underruns, 0)
        XCTAssertGreaterThan(report.minimumFill, 768, "\(report)")
        XCTAssertEqual(report.ringDropped, 0)
        XCTAssertEqual(Double(report.coreFrames), 7_200, accuracy: 10)
    }
}
