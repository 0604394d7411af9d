// Rewind and run-ahead benchmark (`make bench`, Bench/rewind/run.sh): every test cartridge in
// its Debian core, through the real core thread (`CoreThread.step`, one frame at a time), with
// scripted input that changes every 10 frames.
//
// Rewind: the bytes each stored frame costs (XOR delta against the next state, then LZ4 or
// Zstandard level 1), the core-thread CPU a frame costs with and without keeping states, a
// rewind step's CPU, and the seconds 64 MB hold. Run-ahead: core-thread CPU per shown frame
// off, at N = 1 and 2, and with preemptive frames N = 1 and 2, and whether N = 2 keeps 1x.
// Prints Markdown. Usage: RewindBench [frames per measurement, default 600]
import Emulation
import Foundation
import PhosphorKit

let arguments = CommandLine.arguments
let frames = arguments.count > 1 ? max(Int(arguments[1]) ?? 600, 60) : 600
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let logURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("phosphor-rewind-bench.log")
try? FileManager.default.removeItem(at: logURL)
try Log.shared.open(logURL)

let cartridges: [(GameSystem, String)] = [
    (.nes, "Roms/nes/phosphor-test.nes"), (.gb, "Roms/gb/phosphor-test.gbc"), (.snes, "Roms/snes/phosphor-test.sfc"),
    (.gba, "Roms/gba/phosphor-test.gba"), (.pce, "Roms/pce/phosphor-test.pce"), (.nds, "Roms/ds/phosphor-test.nds"),
]

/// The buttons at `frame`: a new combination every 10 frames, A (the tone) every other time.
func buttons(at frame: Int) -> ButtonMask {
    let cycle: [[JoypadButton]] = [[.a], [.right], [.a, .up], [], [.a, .b], [.left, .down], [.a, .start], [.select]]
    return ButtonMask(cycle[(frame / 10) % cycle.count])
}

struct Measurement {
    /// Core-thread CPU per frame (per shown frame with run-ahead).
    var cpuPerFrame: Double
    var status: CoreThread.Status
    var stateSize: Int
    var framesPerSecond: Double
    /// Core-thread CPU per rewind step (when rewind was on).
    var rewindStepCPU: Double?
}

func milliseconds(_ duration: Duration) -> Double { duration.inSeconds * 1000 }

func measure(_ core: CoreInfo, _ system: GameSystem, _ rom: String, rewind: RewindSettings,
             runAhead: RunAheadMode) throws -> Measurement {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-\(UUID())")
    defer { try? FileManager.default.removeItem(at: home) }
    let thread = CoreThread(configuration: CoreHost.Configuration(
        core: core, rom: root.appendingPathComponent(rom), paths: PhosphorPaths(environment: ["PHOSPHOR_HOME": home.path]),
        system: system), options: CoreThread.Options(realTime: false, rewind: rewind, runAhead: runAhead))
    thread.pause()
    try thread.start()
    defer { thread.stop() }
    let warmUp = 60
    for frame in 0..<warmUp {
        thread.input.set(buttons(at: frame), port: 0)
        try thread.step()
    }
    let start = try thread.perform { _ in try ThreadCPUTime.current() }
    for frame in warmUp..<(warmUp + frames) {
        thread.input.set(buttons(at: frame), port: 0)
        try thread.step()
    }
    let end = try thread.perform { _ in try ThreadCPUTime.current() }
    let (stateSize, fps) = try thread.perform { ($0.stateSize, $0.avInfo.framesPerSecond) }
    let status = thread.currentStatus
    var stepCPU: Double?
    if rewind.enabled {
        let steps = min(120, frames)
        let before = try thread.perform { _ in try ThreadCPUTime.current() }
        for _ in 0..<steps { try thread.stepBack() }
        let after = try thread.perform { _ in try ThreadCPUTime.current() }
        stepCPU = milliseconds(after - before) / Double(steps)
    }
    return Measurement(cpuPerFrame: milliseconds(end - start) / Double(frames), status: status, stateSize: stateSize,
                       framesPerSecond: fps, rewindStepCPU: stepCPU)
}

let catalog = CoreCatalog.discover()
let budget = RewindSettings.defaultBudgetBytes
var rewindRows: [String] = []
var aheadRows: [String] = []
var notes: [String] = []
for (system, rom) in cartridges {
    guard let core = catalog.core(for: system) else {
        notes.append("- \(rom): no \(system.displayName) core installed")
        continue
    }
    let name = (rom as NSString).lastPathComponent
    do {
        let plain = try measure(core, system, rom, rewind: .off, runAhead: .off)
        let lz4 = try measure(core, system, rom, rewind: RewindSettings(budgetBytes: budget), runAhead: .off)
        let zstd = try measure(core, system, rom, rewind: RewindSettings(budgetBytes: budget, compression: .zstd(level: 1)),
                               runAhead: .off)
        func perStored(_ run: Measurement) -> Double {
            // The newest state is whole; every other one is a delta.
            Double(run.status.rewindBytes - run.stateSize) / Double(max(run.status.rewindStates - 1, 1))
        }
        let lz4Bytes = perStored(lz4)
        let zstdBytes = perStored(zstd)
        let seconds = Double(budget - lz4.stateSize) / max(lz4Bytes, 1) / lz4.framesPerSecond
        let problem = lz4.status.timelineProblem ?? zstd.status.timelineProblem
        rewindRows.append(String(format: "| %@ | %@ | %d | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f | %@ |",
                                 name, core.name, lz4.stateSize, lz4Bytes, zstdBytes, plain.cpuPerFrame,
                                 lz4.cpuPerFrame - plain.cpuPerFrame, zstd.cpuPerFrame - plain.cpuPerFrame,
                                 lz4.rewindStepCPU ?? 0, zstd.rewindStepCPU ?? 0,
                                 problem ?? (seconds > 3600 ? "> 3600" : String(format: "%.0f", seconds))))

        var cells: [String] = []
        var lines: [String] = []
        for mode in [RunAheadMode.runAhead(frames: 1), .runAhead(frames: 2), .preemptive(frames: 1), .preemptive(frames: 2)] {
            let run = try measure(core, system, rom, rewind: .off, runAhead: mode)
            if let problem = run.status.timelineProblem { lines.append(problem) }
            cells.append(String(format: "%.3f (%.1f×)", run.cpuPerFrame, run.cpuPerFrame / max(plain.cpuPerFrame, 0.0001)))
            if mode == .runAhead(frames: 2) {
                let keeps = run.status.timelineProblem == nil && run.cpuPerFrame < 1000 / plain.framesPerSecond
                cells.append(keeps ? "yes" : "no")
            }
        }
        let problems = Set(lines).sorted().joined(separator: "; ")
        aheadRows.append("| \(name) | \(core.name) | " + String(format: "%.3f", plain.cpuPerFrame) + " | "
                         + cells.joined(separator: " | ") + " | \(problems.isEmpty ? "–" : problems) |")
    } catch {
        notes.append("- \(name) (\(core.name)): \(error)")
    }
}

print("Each figure is core-thread CPU (ms) per frame over \(frames) frames after 60 of warm-up, through")
print("`CoreThread.step` (so it includes the step hand-off, the same in every column). Input changes every")
print("10 frames. The test cartridges draw static pictures: a real game changes more of its state each")
print("frame, so its deltas are bigger than these.")
print("")
print("### Rewind (every frame, 64 MB)")
print("")
print("| cartridge | core | state (B) | B/frame LZ4 | B/frame zstd 1 | frame CPU, no rewind | + keeping states, LZ4 | + zstd 1 | rewind step, LZ4 | rewind step, zstd 1 | seconds in 64 MB (LZ4) |")
print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for row in rewindRows { print(row) }
print("")
print("### Run-ahead (CPU per shown frame, ms, and the ratio to no run-ahead)")
print("")
print("| cartridge | core | off | run-ahead 1 | run-ahead 2 | 1× at 2? | preemptive 1 | preemptive 2 | turned off |")
print("|---|---|--:|--:|--:|:-:|--:|--:|---|")
for row in aheadRows { print(row) }
if !notes.isEmpty {
    print("")
    for note in notes { print(note) }
}
