import Foundation
import XCTest

/// Runs one of the pseudo-terminal scripts in `Support/` (a fake terminal around phosphor) with
/// the binary, the NES cartridge and a fresh home first, then `arguments`, and reads the JSON
/// verdict it prints. The script must exit 0.
func ptyScriptVerdict(_ script: String, arguments: [String] = [],
                      file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let phosphor = try PhosphorProcess()
    defer { phosphor.cleanUp() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let path = PhosphorProcess.packageRoot.appendingPathComponent("Tests/EndToEndTests/Support").appendingPathComponent(script)
    process.arguments = ["python3", path.path, PhosphorProcess.binary.path,
                         PhosphorProcess.rom("nes/phosphor-test.nes").path, phosphor.home.path] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, file: file, line: line)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                         String(decoding: data, as: UTF8.self), file: file, line: line)
}
