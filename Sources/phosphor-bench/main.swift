import Foundation
import PhosphorKit
import Render

// phosphor-bench: benchmarks for `make bench`.
//
//   phosphor-bench make-scroll DIR [FRAMES]    write the synthetic scrolling scene (default 120 frames)
//   phosphor-bench make-static DIR [FRAMES]    write one still picture repeated (default 60 frames)
//   phosphor-bench render [--color 24bit|256|16] [--passes N] [--sizes 128x60,256x120]
//                         [--like-play [--bytes-first]] [--paced | --sleep-us N] [--chafa RESULTS.tsv] DIR...
//       renders every frame directory at every canvas size and prints a Markdown table;
//       with --chafa, chafa_bench's results (same directories) go in the columns beside ours;
//       with --paced, a frame's time of sleep before each frame and CPU time counted, as in play;
//       --sleep-us N the same with N µs of sleep.
//   phosphor-bench pixels [--passes N] [--scales 1,3] [--external RESULTS.tsv] DIR...
//       kitty graphics (zlib, local file) and sixel per frame beside half blocks (Markdown table).
//   phosphor-bench encoder-steps DIR
//       bytes per frame of consecutive frames as each encoder choice is switched on in turn.
//   phosphor-bench show [--color M] [--size COLSxROWS] [--fps N] DIR
//       plays a frame directory on this terminal (for looking at the output by eye).

struct UsageError: Error, CustomStringConvertible {
    var description: String
}

func writeScene(to path: String, frames: Int, still: Bool) throws {
    let directory = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for index in 0..<frames {
        let name = "frame-" + String(format: "%04d", index) + ".xrgb"
        try SyntheticScene.frame(still ? 0 : index).write(to: directory.appendingPathComponent(name))
    }
}

/// chafa_bench output lines: `chafa <tab> scene <tab> cols <tab> rows <tab> frames <tab> µs/frame <tab> bytes/frame`.
struct ChafaResult {
    var microsecondsPerFrame: Double
    var bytesPerFrame: Double
}

func loadChafaResults(_ path: String) throws -> [String: ChafaResult] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var results: [String: ChafaResult] = [:]
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count == 7, fields[0] == "chafa", let micro = Double(fields[5]), let bytes = Double(fields[6]) else { continue }
        results["\(fields[1]) \(fields[2])x\(fields[3])"] = ChafaResult(microsecondsPerFrame: micro, bytesPerFrame: bytes)
    }
    return results
}

func format(_ value: Double, decimals: Int = 0) -> String {
    String(format: "%.\(decimals)f", value)
}

func runRender(_ arguments: [String]) throws {
    var colorMode = ColorMode.trueColor
    var passes = 5
    var sizes = [(128, 60), (256, 120)]
    var chafaPath: String?
    var likePlay = false
    var bytesFirst = false
    var sleepBeforeEachFrame: UInt32?
    var directories: [String] = []
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--color":
            guard let value = iterator.next() else { throw UsageError(description: "--color needs a value") }
            colorMode = try ColorMode(argument: value)
        case "--passes":
            guard let value = iterator.next(), let number = Int(value), number > 0 else { throw UsageError(description: "--passes needs a positive number") }
            passes = number
        case "--sizes":
            guard let value = iterator.next() else { throw UsageError(description: "--sizes needs e.g. 128x60,256x120") }
            sizes = try value.split(separator: ",").map { size in
                let parts = size.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw UsageError(description: "bad size '\(size)'") }
                return (parts[0], parts[1])
            }
        case "--chafa":
            chafaPath = iterator.next()
        case "--like-play":
            likePlay = true
        case "--bytes-first":
            bytesFirst = true
        case "--paced":
            sleepBeforeEachFrame = RenderBenchmark.framePeriodMicroseconds
        case "--sleep-us":
            guard let value = iterator.next(), let number = UInt32(value) else { throw UsageError(description: "--sleep-us needs microseconds") }
            sleepBeforeEachFrame = number
        default:
            directories.append(argument)
        }
    }
    guard !directories.isEmpty else { throw UsageError(description: "render needs at least one frame directory") }
    let chafa = try chafaPath.map(loadChafaResults) ?? [:]
    let benchmark = RenderBenchmark(colorMode: colorMode, passes: passes, likePlay: likePlay, bytesFirst: bytesFirst,
                                    sleepBeforeEachFrame: sleepBeforeEachFrame)

    let plan = bytesFirst ? "rows planned for the fewest bytes, as on a link that limits the picture"
        : "cells chosen one by one and each row's last shift tried first, as on a terminal that takes every byte at once"
    let settings = likePlay ? ", encoder as in play on xterm (REP, row shifts, 71 palette entries; \(plan))" : ""
    let timing = switch sleepBeforeEachFrame {
    case nil: "wall time per frame, frames back to back"
    case RenderBenchmark.framePeriodMicroseconds?: "the thread's CPU time per frame, with a frame's time (16.7 ms) of sleep before each, as in play"
    case let microseconds?: "the thread's CPU time per frame, with \(microseconds) µs of sleep before each"
    }
    print("Render benchmark: \(colorMode.rawValue) colour\(settings), \(passes) passes; time = convert + downsample + diff + encode, \(timing).")
    print("")
    print("| scene | canvas | Phosphor µs/frame | chafa µs/frame | speed-up | Phosphor bytes, 1st frame | Phosphor bytes/frame after | Phosphor full-redraw bytes | chafa bytes/frame |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for directory in directories {
        let frames = try RawFrameFile.loadDirectory(URL(fileURLWithPath: directory))
        let scene = URL(fileURLWithPath: directory).lastPathComponent
        for (columns, rows) in sizes {
            let result = try benchmark.run(scene: scene, frames: frames, columns: columns, rows: rows)
            let theirs = chafa["\(scene) \(columns)x\(rows)"]
            let speedUp = theirs.map { format($0.microsecondsPerFrame / result.microsecondsPerFrame, decimals: 1) + "×" } ?? "–"
            print("| \(scene) (\(result.frames) frames) | \(columns)×\(rows) | \(format(result.microsecondsPerFrame, decimals: 1)) | "
                + "\(theirs.map { format($0.microsecondsPerFrame, decimals: 1) } ?? "–") | \(speedUp) | \(result.firstFrameBytes) | "
                + "\(format(result.steadyBytesPerFrame)) | \(format(result.fullRedrawBytes)) | \(theirs.map { format($0.bytesPerFrame) } ?? "–") |")
        }
    }
}

func runShow(_ arguments: [String]) throws {
    var colorMode = ColorMode.detect(environment: ProcessInfo.processInfo.environment)
    var columns = 80, rows = 24, fps = 30.0
    var directory: String?
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--color":
            colorMode = try ColorMode(argument: iterator.next() ?? "")
        case "--size":
            let parts = (iterator.next() ?? "").split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw UsageError(description: "--size needs COLSxROWS") }
            (columns, rows) = (parts[0], parts[1])
        case "--fps":
            fps = Double(iterator.next() ?? "") ?? fps
        default:
            directory = argument
        }
    }
    guard let directory else { throw UsageError(description: "show needs a frame directory") }
    let frames = try RawFrameFile.loadDirectory(URL(fileURLWithPath: directory))
    let renderer = FrameRenderer(colorMode: colorMode, synchronizedOutput: true)
    var output: [UInt8] = Array("\u{1B}[?25l\u{1B}[2J".utf8)
    for frame in frames {
        renderer.beginFrame(columns: columns, rows: rows)
        try frame.pixels.withUnsafeBytes { raw in
            let source = try FrameSource(bytes: raw, width: frame.width, height: frame.height, pitch: frame.width * 4, format: .xrgb8888)
            renderer.draw(source, from: source.bounds, into: CellRect(x: 0, y: 0, columns: columns, rows: rows - 1))
        }
        renderer.put(text: " phosphor-bench show \(colorMode.rawValue) ", column: 0, row: rows - 1, foreground: .white, background: RGBColor(rawValue: 0x303030))
        renderer.encodeChanges(into: &output)
        FileHandle.standardOutput.write(Data(output))
        output.removeAll(keepingCapacity: true)
        usleep(UInt32(1_000_000 / fps))
    }
    FileHandle.standardOutput.write(Data("\u{1B}[0m\u{1B}[?25h\u{1B}[\(rows);1H\n".utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "make-scroll"?, "make-static"?:
        guard arguments.count >= 2 else { throw UsageError(description: "\(arguments[0]) needs a directory") }
        let still = arguments[0] == "make-static"
        let frames = arguments.count > 2 ? Int(arguments[2]) : (still ? 60 : 120)
        guard let frames, frames > 0 else { throw UsageError(description: "frame count must be a positive number") }
        try writeScene(to: arguments[1], frames: frames, still: still)
    case "render"?:
        try runRender(Array(arguments.dropFirst()))
    case "show"?:
        try runShow(Array(arguments.dropFirst()))
    case "pixels"?:
        try runPixels(Array(arguments.dropFirst()))
    case "encoder-steps"?:
        try EncoderSteps.run(Array(arguments.dropFirst()))
    default:
        throw UsageError(description: "usage: phosphor-bench make-scroll DIR [N] | make-static DIR [N] | render [--color M] [--like-play] [--paced | --sleep-us N] [--passes N] [--sizes WxH,…] [--chafa TSV] DIR…")
    }
} catch {
    FileHandle.standardError.write(Data("phosphor-bench: \(error)\n".utf8))
    exit(1)
}
