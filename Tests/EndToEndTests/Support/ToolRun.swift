import Foundation

/// Runs a short-lived tool (zip, 7z, cc, make, bash, python3, retroarch) and waits: its exit
/// status and its standard output and error together. `arguments[0]` is looked up in PATH.
enum ToolRun {
    static func run(_ arguments: [String], in folder: URL? = nil,
                    environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
