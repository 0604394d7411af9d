import Foundation
import XCTest

/// Where the built executables and the repository's files are.
enum Binaries {
    /// The package root (this file is Tests/ReliabilityTests/Support/Binaries.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of the test bundle: `swift build` puts every executable of the package there,
    /// whatever `--scratch-path` was.
    static let buildFolder: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first(where: { $0.hasSuffix(".xctest") })
            ?? Bundle.main.bundlePath)
        return bundle.deletingLastPathComponent()
    }()

    /// `PHOSPHOR_BINARY` (set by `make test` to the release build), else the build beside the tests.
    static let phosphor: URL = {
        if let path = ProcessInfo.processInfo.environment["PHOSPHOR_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let beside = buildFolder.appendingPathComponent("phosphor")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/phosphor")
    }()

    static func probe(_ name: String) -> URL {
        let beside = buildFolder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return phosphor.deletingLastPathComponent().appendingPathComponent(name)
    }

    static func rom(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent("Roms").appendingPathComponent(relativePath)
    }

    static func fixture(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(relativePath)
    }
}

/// A fresh folder under /tmp, removed by `remove()`.
struct ScratchFolder {
    let url: URL

    /// - Parameter base: where to make it (default: the temporary directory).
    init(_ label: String, base: URL = FileManager.default.temporaryDirectory) throws {
        url = base.appendingPathComponent("phosphor-rel-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> URL {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
        return target
    }

    func names(in relative: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(relative).path)) ?? []).sorted()
    }
}


/// A child process with piped output, for tests that kill it.
final class ChildProcess {
    let process = Process()
    private let output = Pipe()
    private let error = Pipe()

    init(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Reads standard output until `line` arrives (or the pipe closes). Returns whether it did.
    func waitForLine(_ line: String) -> Bool {
        var buffer = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return false }
            buffer.append(chunk)
            if String(decoding: buffer, as: UTF8.self).contains(line + "\n") { return true }
        }
    }

    /// SIGKILL and reap.
    func kill() {
        Glibc.kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits and returns (status, stdout, stderr); status 128+N for a signal.
    func finish() -> (status: Int32, output: String, error: String) {
        nonisolated(unsafe) var errorData = Data()
        let errorHandle = error.fileHandleForReading
        let reader = Thread { errorData = errorHandle.readDataToEndOfFile() }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}
