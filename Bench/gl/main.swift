// GLBench (`make bench`, section 6): the hardware-rendered test core (Tests/Fixtures/glcore) run
// headless through CoreHost on whatever EGL the machine has (Mesa's llvmpipe without a GPU), with
// every frame read back into the mailbox and with none read back (one a second), at 320x240 and
// 640x480. The read-back cost per frame is the difference of the two frame times.
//
//   GLBench GLCORE.so [frames per run] [runs]
import Emulation
import Foundation
import PhosphorKit

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: GLBench GLCORE.so [frames] [runs]\n".utf8))
    exit(2)
}
let library = URL(fileURLWithPath: arguments[1])
let frames = arguments.count > 2 ? Int(arguments[2]) ?? 600 : 600
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
let home = FileManager.default.temporaryDirectory.appendingPathComponent("phosphor-glbench-\(getpid())")
defer { try? FileManager.default.removeItem(at: home) }
let rom = home.appendingPathComponent("bench.gl")
try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
try Data([0]).write(to: rom)

/// Frames per second of one run, and the read-back time per frame read (`CoreHost.readBackDuration`:
/// on llvmpipe it includes waiting for the rasteriser to finish the frame). `readBack` false copies
/// only one frame in 60 (the headless rule before the final frames, `CoreConnections.copyFramesFrom`).
func measure(size: String, readBack: Bool) throws -> (fps: Double, readBackMilliseconds: Double) {
    setenv("GLCORE_SIZE", size, 1)
    let core = CoreInfo(path: library, name: "glcore", displayName: "glcore", systems: [], extensions: ["gl"],
                        needsFullPath: false, supportsNoGame: false, displayVersion: nil, softwareRendered: false)
    let paths = PhosphorPaths(environment: ["PHOSPHOR_HOME": home.path])
    let connections = CoreConnections(mailbox: FrameMailbox(), input: InputState(),
                                      copyFramesFrom: readBack ? 0 : UInt64.max)
    let host = try CoreHost(configuration: CoreHost.Configuration(core: core, rom: rom, paths: paths, system: nil),
                            connections: connections)
    defer { host.unload() }
    for _ in 0..<30 { host.runFrame() }  // warm up: shaders, buffers
    let (readStart, countStart) = (host.readBackDuration, host.readBackCount)
    let start = ContinuousClock.now
    for _ in 0..<frames { host.runFrame() }
    let elapsed = seconds(ContinuousClock.now - start)
    let reads = max(host.readBackCount - countStart, 1)
    return (Double(frames) / elapsed, seconds(host.readBackDuration - readStart) / Double(reads) * 1000)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

print("| picture | fps, 1 frame in 60 read back | fps, every frame read back | read-back per frame (median run) |")
print("|---|---:|---:|---:|")
for size in ["320x240", "640x480"] {
    var without = 0.0, with = 0.0
    var costs: [Double] = []
    for _ in 0..<runs {  // alternating; best fps of `runs` each, median read-back time
        without = max(without, try measure(size: size, readBack: false).fps)
        let run = try measure(size: size, readBack: true)
        with = max(with, run.fps)
        costs.append(run.readBackMilliseconds)
    }
    let cost = costs.sorted()[costs.count / 2]
    print("| \(size) | \(String(format: "%.0f", without)) | \(String(format: "%.0f", with)) | \(String(format: "%.3f", cost)) ms |")
}
