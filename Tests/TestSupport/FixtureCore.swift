import Foundation

/// Builds one of the test cores in Tests/Fixtures (crashcore, glcore) with the system C compiler
/// into a folder of the caller's. Shared by the emulation and reliability tests.
public enum FixtureCore {
    /// The repository's Tests/Fixtures folder (this file is Tests/TestSupport/FixtureCore.swift).
    public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Compiles `Tests/Fixtures/<source>` into `<folder>/<library>` with `-D` for each of `defines`.
    public static func build(_ source: String, into folder: URL, library: String, defines: [String] = []) throws -> URL {
        let output = folder.appendingPathComponent(library)
        let arguments = ["-shared", "-fPIC", "-O1", "-o", output.path, fixtures.appendingPathComponent(source).path]
            + defines.map { "-D\($0)" }
        var failure = "no C compiler (cc, clang or gcc)"
        for compiler in ["cc", "clang", "gcc"] {  // the Swift toolchain brings clang
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [compiler] + arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if process.terminationStatus == 0 { return output }
            failure = String(decoding: message, as: UTF8.self)
        }
        throw NSError(domain: "FixtureCore", code: 1, userInfo: [NSLocalizedDescriptionKey: "cc \(source) failed: \(failure)"])
    }
}
