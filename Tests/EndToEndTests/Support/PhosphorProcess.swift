import Foundation
import XCTest

/// Runs the real `phosphor` binary for end-to-end tests, each in a fresh `PHOSPHOR_HOME`.
struct PhosphorProcess {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// The last line of standard output (the headless summary).
        var lastLine: String { standardOutput.split(separator: "\n").last.map(String.init) ?? "" }

        /// `key=value` fields of the headless summary line.
        var fields: [String: String] {
            var result: [String: String] = [:]
            for field in lastLine.split(separator: " ") {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
            }
            return result
        }
    }

    /// The package root (this file is Tests/EndToEndTests/Support/PhosphorProcess.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `PHOSPHOR_BINARY` (set by `make test` to the release build), else the debug build beside the tests.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["PHOSPHOR_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.appendingPathComponent(".build/debug/phosphor")
    }()

    static func rom(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent("Roms").appendingPathComponent(relativePath)
    }

    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("phosphor-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: home) }

    /// Runs phosphor with `arguments` and waits (the child gets no terminal).
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PHOSPHOR_HOME"] = home.path
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let errorReader = Thread { errorData = error.fileHandleForReading.readDataToEndOfFile() }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorReader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return Outcome(status: process.terminationStatus,
                       standardOutput: String(decoding: outputData, as: UTF8.self),
                       standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Writes `text` to a file in the test home and returns its URL.
    func file(_ name: String, _ contents: Data) throws -> URL {
        let url = home.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }
}
