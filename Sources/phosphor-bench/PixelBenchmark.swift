import Foundation
import PhosphorKit
import Render

/// The pixel protocols per frame (`phosphor-bench pixels`): kitty graphics compressed in the
/// escape code (what goes over SSH), kitty through a `/dev/shm` file (same machine), and sixel
/// at a whole scale — beside the half-block path on the same frames, where each half-block cell
/// pair is exactly one frame pixel (the largest picture half blocks can draw without scaling).
/// Only changed frames count for kitty's bytes (unchanged frames are not sent).
struct PixelBenchmark {
    struct Row {
        var scene: String
        var scale: Int
        var method: String
        /// Medians per frame: the encoding thread's CPU time, and wall time.
        var cpuMicroseconds: Double
        var wallMicroseconds: Double
        var bytesPerFrame: Double
    }

    var passes: Int
    var registers = 256

    func run(scene: String, frames: [RawFrameFile], scale: Int) throws -> [Row] {
        guard let first = frames.first else { return [] }
        let images: [PixelImage] = try frames.map { frame in
            try FrameSource.withPixels(frame.pixels, width: frame.width, height: frame.height, pitch: frame.width * 4,
                                       format: .xrgb8888) { PixelImage($0, region: $0.bounds) }
        }
        let changed = images.indices.filter { $0 == 0 || images[$0] != images[$0 - 1] }
        let cells = CellRect(x: 0, y: 0, columns: first.width * scale / 8, rows: first.height * scale / 16)
        var rows: [Row] = []

        // Each frame's encode is timed alone, in the thread's CPU time (what the encoder costs,
        // even when other work on a loaded machine takes the CPU away) and in wall time; the
        // table gives the median of every frame of every pass (a load spike moves a mean, not it).
        func measure(_ method: String, indices: [Int], _ body: (Int, inout [UInt8]) throws -> Void) throws {
            var output: [UInt8] = []
            output.reserveCapacity(1 << 21)
            var cpu: [Double] = []
            var wall: [Double] = []
            var bytes = 0
            for pass in 0..<passes {
                for index in indices {
                    output.removeAll(keepingCapacity: true)
                    let startCPU = try ThreadCPUTime.current()
                    let start = Clock.now()
                    try body(index, &output)
                    wall.append(Double(Clock.now() - start) / 1000)
                    cpu.append(Double((try ThreadCPUTime.current() - startCPU) / .nanoseconds(1)) / 1000)
                    if pass == 0 { bytes += output.count }
                }
            }
            let count = Double(max(indices.count, 1))
            rows.append(Row(scene: scene, scale: scale, method: method, cpuMicroseconds: median(cpu),
                            wallMicroseconds: median(wall), bytesPerFrame: Double(bytes) / count))
        }

        // Each timed body starts from the core's frame (XRGB8888), as the play screen does.
        func image(_ index: Int) throws -> PixelImage {
            let frame = frames[index]
            return try FrameSource.withPixels(frame.pixels, width: frame.width, height: frame.height, pitch: frame.width * 4,
                                              format: .xrgb8888) { PixelImage($0, region: $0.bounds) }
        }
        if scale == 1 {
            let renderer = FrameRenderer(colorMode: .trueColor, synchronizedOutput: false)
            let target = CellRect(x: 0, y: 0, columns: first.width, rows: (first.height + 1) / 2)
            try measure("half blocks (\(target.columns)x\(target.rows) cells, changes only)", indices: Array(frames.indices)) { index, output in
                let frame = frames[index]
                renderer.beginFrame(columns: target.columns, rows: target.rows)
                try frame.pixels.withUnsafeBytes { raw in
                    let source = try FrameSource(bytes: raw, width: frame.width, height: frame.height, pitch: frame.width * 4, format: .xrgb8888)
                    renderer.draw(source, from: source.bounds, into: target)
                }
                renderer.encodeChanges(into: &output)
            }
        }
        // One deflate stream for the run, as the play screen keeps one per picture writer.
        let deflater = try ZlibDeflater(level: 1)
        try measure("kitty zlib+base64 (changed frames)", indices: changed) { index, output in
            try KittyGraphicsEncoder.place(try image(index), imageID: 1, placementID: 1, cells: cells,
                                           transport: .direct(compressed: true), deflater: deflater, into: &output)
        }
        let files = KittyFrameFile()
        var written: [String] = []
        try measure("kitty local file (/dev/shm)", indices: changed) { index, output in
            let picture = try image(index)
            guard let path = files.write(picture.rgb) else { throw UsageError(description: "cannot write a frame file") }
            written.append(path)
            try KittyGraphicsEncoder.place(picture, imageID: 1, placementID: 1, cells: cells,
                                           transport: .temporaryFile(path: path), into: &output)
        }
        for path in written { files.remove(path) }
        try measure("sixel, own encoder (\(registers) registers)", indices: Array(frames.indices)) { index, output in
            SixelEncoder.encode(try image(index), scale: scale, registers: registers, into: &output)
        }
        return rows
    }
}

func runPixels(_ arguments: [String]) throws {
    var passes = 3
    var scales = [1, 3]
    var directories: [String] = []
    var external: [String] = []
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--passes":
            guard let value = iterator.next().flatMap(Int.init), value > 0 else { throw UsageError(description: "--passes needs a number") }
            passes = value
        case "--scales":
            guard let value = iterator.next() else { throw UsageError(description: "--scales needs a list") }
            scales = value.split(separator: ",").compactMap { Int($0) }
        case "--external":
            // Lines `scene <tab> scale <tab> method <tab> CPU µs/frame <tab> wall µs/frame <tab> bytes/frame`
            // (medians) from another encoder.
            guard let path = iterator.next() else { throw UsageError(description: "--external needs a file") }
            external += try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        default:
            directories.append(argument)
        }
    }
    print("| scene | scale | method | µs/frame (CPU, median) | µs/frame (wall, median) | bytes/frame |")
    print("|---|---|---|---:|---:|---:|")
    let benchmark = PixelBenchmark(passes: passes)
    for directory in directories {
        let url = URL(fileURLWithPath: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".xrgb") }.sorted()
        let frames = try names.map { try RawFrameFile(contentsOf: url.appendingPathComponent($0)) }
        let scene = url.lastPathComponent
        let label = scene + (frames.first.map { " \($0.width)x\($0.height)" } ?? "")
        for scale in scales {
            for row in try benchmark.run(scene: scene, frames: frames, scale: scale) {
                print("| \(label) | \(row.scale)x | \(row.method) | \(format(row.cpuMicroseconds)) | \(format(row.wallMicroseconds)) | \(format(row.bytesPerFrame)) |")
            }
            for line in external {
                let fields = line.split(separator: "\t").map(String.init)
                guard fields.count == 6, fields[0] == scene, Int(fields[1]) == scale,
                      let cpu = Double(fields[3]), let wall = Double(fields[4]), let bytes = Double(fields[5]) else { continue }
                print("| \(label) | \(scale)x | \(fields[2]) | \(format(cpu)) | \(format(wall)) | \(format(bytes)) |")
            }
        }
    }
}

/// The middle value of `values` (the mean of the two middle ones for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
