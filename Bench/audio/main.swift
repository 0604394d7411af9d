// Audio benchmark: underruns per minute at 1x and the audio thread's CPU time.
//
// A simulated core thread produces a 60 fps stream of 32768 Hz stereo samples (a 440 Hz tone),
// paced by the monotonic clock and waiting above `AudioOutput.ringHighWater`, exactly as the real core
// thread does at 1x, into an `AudioOutput` on ALSA's `file` PCM (real libasound, no sound card).
// Run once per resampler quality, then measures the offline resampler's throughput.
// Prints Markdown. Usage: AudioBench [seconds per run, default 60] [device, default a file PCM in /tmp]
import Foundation
import Audio
import PhosphorKit

let arguments = CommandLine.arguments
let seconds = arguments.count > 1 ? (Double(arguments[1]) ?? 60) : 60
let logURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("phosphor-audio-bench.log")
try? FileManager.default.removeItem(at: logURL)
try Log.shared.open(logURL)
let sourceRate = 32768.0
let fps = 60.0

struct RunResult {
    var quality: ResamplerQuality
    var seconds: Double
    var underruns: Int
    var cpu: Duration
    var dropped: Int
    var coreFrames: Int
    var recordedFrames: Int
    var lateFrames: Int
}

func run(quality: ResamplerQuality, seconds: Double) throws -> RunResult {
    let rawURL = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("phosphor-audio-bench-\(getpid())-\(quality.rawValue).raw")
    defer { try? FileManager.default.removeItem(at: rawURL) }
    let device = arguments.count > 2 ? arguments[2] : "file:FILE=\(rawURL.path),FORMAT=raw"
    let output = try AudioOutput(device: device, latency: .milliseconds(64), quality: quality)
    let ring = SampleRing(minimumCapacity: 4 * output.ringHighWater)
    try output.start(ring: ring, sourceRate: sourceRate)

    let clock = ContinuousClock()
    let start = clock.now
    let frameDuration = Duration.seconds(1 / fps)
    var deadline = start
    var coreFrames = 0
    var lateFrames = 0
    var phase = 0.0
    var samples = [Int16](repeating: 0, count: 2048)
    while clock.now - start < .seconds(seconds) {
        // "retro_run": one frame of sound.
        let frames = (coreFrames + 1) * Int(sourceRate) / Int(fps) - coreFrames * Int(sourceRate) / Int(fps)
        for index in 0..<frames {
            let value = Int16(8000 * sin(phase))
            samples[index * 2] = value
            samples[index * 2 + 1] = value
            phase += 2 * Double.pi * 440 / sourceRate
        }
        if phase > 2 * Double.pi { phase -= 2 * Double.pi * (phase / (2 * Double.pi)).rounded(.down) }
        samples.withUnsafeBufferPointer { _ = ring.write(UnsafeBufferPointer(rebasing: $0[0..<(frames * 2)])) }
        coreFrames += 1
        // The 1x contract: wait while the ring is above the high-water mark, else pace by the clock.
        while ring.count > output.ringHighWater { Thread.sleep(forTimeInterval: 0.001) }
        deadline += frameDuration
        let now = clock.now
        if now < deadline {
            Thread.sleep(forTimeInterval: milliseconds(deadline - now) / 1000)
        } else if now - deadline > frameDuration {
            lateFrames += 1
            deadline = now
        }
    }
    let elapsed = clock.now - start
    output.stop()
    let recorded = (try? FileManager.default.attributesOfItem(atPath: rawURL.path)[.size] as? Int) ?? 0
    let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return RunResult(quality: quality, seconds: elapsedSeconds, underruns: output.underruns,
                     cpu: output.threadCPUTime, dropped: ring.dropped, coreFrames: coreFrames,
                     recordedFrames: recorded / 4, lateFrames: lateFrames)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) * 1e-15
}

/// Offline throughput: output frames per second of CPU for 10 s of 32768 Hz sound.
func throughput(_ quality: ResamplerQuality) throws -> Double {
    let input = (0..<(32768 * 10)).flatMap { index -> [Int16] in
        let value = Int16(8000 * sin(2 * Double.pi * 440 * Double(index) / sourceRate))
        return [value, value]
    }
    let resampler = try Resampler(sourceRate: sourceRate, targetRate: 48000, quality: quality)
    let clock = ContinuousClock()
    var produced = 0
    let elapsed = try clock.measure {
        var start = 0
        while start < input.count {
            let end = min(input.count, start + 1092)
            produced += try resampler.process(Array(input[start..<end])).count / 2
            start = end
        }
        produced += try resampler.flush().count / 2
    }
    return Double(produced) / (milliseconds(elapsed) / 1000)
}

print("### Audio: 60 fps producer at 32768 Hz → AudioOutput → ALSA file PCM, \(Int(seconds)) s per run\n")
print("| resampler | run (s) | core frames | late frames | underruns | underruns/min | ring drops (samples) | recorded (s of 48 kHz) | audio thread CPU (ms) | CPU % of one core |")
print("|---|---|---|---|---|---|---|---|---|---|")
for quality in [ResamplerQuality.sincFastest, .linear] {
    do {
        let result = try run(quality: quality, seconds: seconds)
        let cpu = milliseconds(result.cpu)
        print("| \(quality.rawValue) | \(String(format: "%.1f", result.seconds)) | \(result.coreFrames) | \(result.lateFrames) "
            + "| \(result.underruns) | \(String(format: "%.2f", Double(result.underruns) / (result.seconds / 60))) "
            + "| \(result.dropped) | \(String(format: "%.2f", Double(result.recordedFrames) / 48000)) "
            + "| \(String(format: "%.0f", cpu)) | \(String(format: "%.2f", cpu / 10 / result.seconds)) |")
    } catch {
        print("| \(quality.rawValue) | \(error) | | | | | | | | |")
    }
}
print("\n### Resampler throughput, 32768 → 48000 Hz stereo (offline, one thread)\n")
print("| resampler | output frames per CPU second | × real time |")
print("|---|---|---|")
for quality in ResamplerQuality.allCases {
    let rate = try throughput(quality)
    print("| \(quality.rawValue) | \(String(format: "%.0f", rate)) | \(String(format: "%.0f", rate / 48000)) |")
}
