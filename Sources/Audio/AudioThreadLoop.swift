import Foundation
import Glibc
import PhosphorKit

/// The body of the audio thread: ring → resampler → PCM, one tick at a time.
/// Everything here belongs to the audio thread; it talks to other threads only through
/// `AudioControls` (atomics) and the `SampleRing`.
final class AudioThreadLoop: @unchecked Sendable {
    private let device: PCMDevice
    private let ring: SampleRing
    private let resampler: Resampler
    private let controls: AudioControls
    private let controller: RateController
    private var clock: PlaybackClock
    private var deviceFailed = false

    /// A dry spell that ends with new samples within this time is an underrun; a longer one is the
    /// core pausing (menu, breakpoint, end of a test) and is not counted.
    private static let idleAfter = 0.25
    /// Sped-up fast-forward plays the sound at most this fast (libsamplerate allows 1:256, and beyond
    /// 8x it is noise anyway); what the core makes beyond that is dropped by the full ring.
    private static let fastestSpedUpSound = 8.0
    /// When the device last ran dry, while it is still waiting for samples.
    private var drySince: Double?
    /// True until the ring holds half its high-water mark: at the start, after running dry and
    /// after fast-forward.
    private var priming = true
    private var input: [Int16]
    private var output: [Int16] = []

    /// The rate `resampler` was made for; changes arrive through `controls.sourceRate`.
    private var sourceRate: Double

    init(device: PCMDevice, ring: SampleRing, resampler: Resampler, sourceRate: Double, controls: AudioControls) {
        self.device = device
        self.sourceRate = sourceRate
        self.ring = ring
        self.resampler = resampler
        self.controls = controls
        controller = RateController(bufferFrames: device.bufferFrames)
        clock = PlaybackClock(rate: Double(device.rate), bufferFrames: device.bufferFrames)
        input = [Int16](repeating: 0, count: max(4096, device.bufferFrames * 2))
        output.reserveCapacity(device.bufferFrames * 4)
    }

    /// Sleep between ticks: half a period, within 2…10 ms.
    private var tick: Double {
        min(0.010, max(0.002, Double(device.periodFrames) / Double(device.rate) / 2))
    }

    func run() {
        let origin = ContinuousClock.now
        var lastSpeed = 1.0
        while !controls.stopRequested.load(ordering: .relaxed) {
            let elapsed = ContinuousClock.now - origin
            let now = elapsed.inSeconds

            let speed = Double(bitPattern: controls.speed.load(ordering: .relaxed))
            if speed != lastSpeed {
                if speed == 1 {
                    // Back to 1x: what fast-forward left in the ring would only add latency.
                    ring.discardAll()
                    resetResampler()
                    priming = true
                }
                lastSpeed = speed
            }
            let newSourceRate = Double(bitPattern: controls.sourceRate.load(ordering: .relaxed))
            if newSourceRate != sourceRate {
                do {
                    try resampler.setRates(source: newSourceRate, target: Double(device.rate))
                    Log.info("audio: source rate now \(newSourceRate) Hz")
                } catch {
                    Log.warning("\(error)")
                }
                sourceRate = newSourceRate
            }

            tickOnce(now: now, speed: speed)
            recordCPUTime()
            Thread.sleep(forTimeInterval: tick)
        }
        if !deviceFailed { device.drainAndClose() } else { device.close() }
        recordCPUTime()
    }

    private func tickOnce(now: Double, speed: Double) {
        var delay = 0
        if !deviceFailed {
            do {
                switch try device.delay() {
                case let .ok(frames): delay = frames
                case .recoveredUnderrun:
                    noteRanDry(at: now)
                    clock.deviceRecovered(at: now, reportedDelay: 0)
                }
            } catch {
                failDevice(error)
            }
        }
        let (fill, ranDry) = clock.fill(at: now, reportedDelay: delay)
        if ranDry { noteRanDry(at: now) }

        let wanted = max(0, controller.targetFill - fill)
        let fastForwardMuted = speed > 1 && !controls.spedUp.load(ordering: .relaxed)
        if fastForwardMuted {
            // Keep the device fed with silence so it neither underruns nor clicks on return.
            ring.discardAll()
            guard wanted > 0 else { return }
            output.removeAll(keepingCapacity: true)
            output.append(contentsOf: repeatElement(0, count: wanted * 2))
        } else {
            guard wanted > 0 else { return }
            // The ring keeps a reserve of half its high-water mark, so one late core frame does not
            // starve the device; (re)starting waits for it.
            let reserve = min(AudioOutput.ringHighWater(sourceRate: sourceRate) / 2, ring.capacity / 2)
            if priming {
                guard ring.count >= reserve else { return }
                priming = false
            }
            let audibleSpeed = min(speed, AudioThreadLoop.fastestSpedUpSound)
            let plan = controller.plan(deviceFill: fill, ringFrames: min(ring.count / 2, input.count / 2),
                                       ringReserve: reserve / 2, nominalRatio: resampler.ratio / audibleSpeed)
            let ratio = plan.ratio
            let framesToRead = plan.inputFrames
            guard framesToRead > 0 else { return }
            let samplesRead = input.withUnsafeMutableBufferPointer { buffer in
                ring.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<(framesToRead * 2)]))
            }
            noteSamplesArrived(at: now)
            let gain: Float = controls.muted.load(ordering: .relaxed)
                ? 0 : Float(Double(bitPattern: controls.volume.load(ordering: .relaxed)))
            output.removeAll(keepingCapacity: true)
            do {
                try input.withUnsafeBufferPointer { buffer in
                    try resampler.convert(UnsafeBufferPointer(rebasing: buffer[0..<samplesRead]), ratio: ratio,
                                          gain: gain, endOfInput: false, appendingTo: &output)
                }
            } catch {
                Log.warning("\(error)")
                resetResampler()
                return
            }
        }
        writeOutput(at: now)
    }

    /// Writes all of `output`, retrying after a recovered underrun.
    private func writeOutput(at now: Double) {
        var offset = 0
        var attempts = 0
        while offset < output.count && attempts < 8 {
            attempts += 1
            if deviceFailed {
                offset = output.count
                break
            }
            do {
                let status = try output.withUnsafeBufferPointer { buffer in
                    try device.write(UnsafeBufferPointer(rebasing: buffer[offset...]))
                }
                switch status {
                case let .ok(frames): offset += frames * 2
                case .recoveredUnderrun:
                    noteRanDry(at: now)
                    clock.deviceRecovered(at: now, reportedDelay: 0)
                }
            } catch {
                failDevice(error)
            }
        }
        clock.didWrite(offset / 2, at: now)
    }

    /// The device ran dry: remember when, and decide once samples flow again.
    private func noteRanDry(at now: Double) {
        priming = true
        if drySince == nil { drySince = now }
    }

    private func noteSamplesArrived(at now: Double) {
        guard let since = drySince else { return }
        drySince = nil
        if now - since < AudioThreadLoop.idleAfter {
            controls.underruns.add(1, ordering: .relaxed)
            Log.debug("audio: underrun at \(since) s")
        }
    }

    /// The device broke (unplugged, driver error): keep draining the ring at real-time pace so the
    /// core thread, which waits on `ringHighWater`, keeps running, silently.
    private func failDevice(_ error: Error) {
        Log.error("\(error); continuing without sound")
        deviceFailed = true
        device.close()
        clock.forceMonotonic()
    }

    private func resetResampler() {
        do { try resampler.reset() } catch { Log.warning("\(error)") }
    }

    private func recordCPUTime() {
        var time = timespec()
        if clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 {
            controls.cpuNanoseconds.store(time.tv_sec * 1_000_000_000 + time.tv_nsec, ordering: .relaxed)
        }
    }
}
