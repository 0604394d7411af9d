// Rewind and run-ahead benchmark (`make bench`, Bench/rewind/run.sh): every test cartridge in
// its Debian core, through the real core thread (`CoreThread.step`, one frame at a time), with
// scripted input that changes every 10 frames.
//
// Rewind: the bytes each stored frame costs (XOR delta against the next state, then Zstandard
// level 1, the ring's default, or LZ4), the core-thread CPU a frame costs with and without keeping states, a
// rewind step's CPU, and the seconds 64 MB hold. Run-ahead: core-thread CPU per shown frame
// off, at N = 1 and 2, and with preemptive frames N = 1 and 2, and whether N = 2 keeps 1x.
// Writes Markdown to OUTPUT (the cores print their own chatter on stdout). Usage:
// RewindBench [frames per measurement, default 600] [OUTPUT, default stdout]
import Emulation
import Foundation
import PhosphorKit

let arguments = CommandLine.arguments
let frames = arguments.count > 1 ? max(Int(arguments[1]) ?? 600, 60) : 600
let outputPath = arguments.count > 2 ? arguments[2] : nil
nonisolated(unsafe) var output = ""
func emit(_ line: String) { output += line + "\n" }
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
        let lz4 = try measure(core, system, rom, rewind: RewindSettings(budgetBytes: budget, compression: .lz4), runAhead: .off)
        let zstd = try measure(core, system, rom, rewind: RewindSettings(budgetBytes: budget), runAhead: .off)
        func perStored(_ run: Measurement) -> Double {
            // The newest state is whole; every other one is a delta.
            Double(run.status.rewindBytes - run.stateSize) / Double(max(run.status.rewindStates - 1, 1))
        }
        let lz4Bytes = perStored(lz4)
        let zstdBytes = perStored(zstd)
        func seconds(_ bytes: Double) -> String {
            let value = Double(budget - lz4.stateSize) / max(bytes, 1) / lz4.framesPerSecond
            return value > 3600 ? "> 3600" : String(format: "%.0f", value)
        }
        let problem = lz4.status.timelineProblem ?? zstd.status.timelineProblem
        rewindRows.append(String(format: "| %@ | %@ | %d | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f | %@ | %@ |",
                                 name, core.name, lz4.stateSize, zstdBytes, lz4Bytes, plain.cpuPerFrame,
                                 zstd.cpuPerFrame - plain.cpuPerFrame, lz4.cpuPerFrame - plain.cpuPerFrame,
                                 zstd.rewindStepCPU ?? 0, lz4.rewindStepCPU ?? 0,
                                 problem ?? seconds(zstdBytes), problem == nil ? seconds(lz4Bytes) : "–"))

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
        // One line is enough: the modes fail for the same reason.
        let problems = lines.first ?? ""
        aheadRows.append("| \(name) | \(core.name) | " + String(format: "%.3f", plain.cpuPerFrame) + " | "
                         + cells.joined(separator: " | ") + " | \(problems.isEmpty ? "–" : problems) |")
    } catch {
        notes.append("- \(name) (\(core.name)): \(error)")
    }
}

emit("Each figure is core-thread CPU (ms) per frame over \(frames) frames after 60 of warm-up, through")
emit("`CoreThread.step` (so it includes the step hand-off, the same in every column). Input changes every")
emit("10 frames. The test cartridges draw static pictures: a real game changes more of its state each")
emit("frame, so its deltas are bigger than these.")
emit("")
emit("### Rewind (every frame, 64 MB)")
emit("")
emit("| cartridge | core | state (B) | B/frame zstd 1 | B/frame LZ4 | frame CPU, no rewind | + keeping states, zstd 1 | + LZ4 | rewind step, zstd 1 | rewind step, LZ4 | s in 64 MB, zstd 1 | s in 64 MB, LZ4 |")
emit("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for row in rewindRows { emit(row) }
emit("")
emit("### Run-ahead (CPU per shown frame, ms, and the ratio to no run-ahead)")
emit("")
emit("| cartridge | core | off | run-ahead 1 | run-ahead 2 | 1× at 2? | preemptive 1 | preemptive 2 | turned off |")
emit("|---|---|--:|--:|--:|:-:|--:|--:|---|")
for row in aheadRows { emit(row) }
if !notes.isEmpty {
    emit("")
    for note in notes { emit(note) }
}

if let outputPath {
    try output.write(toFile: outputPath, atomically: true, encoding: .utf8)
} else {
    print(output, terminator: "")
}
