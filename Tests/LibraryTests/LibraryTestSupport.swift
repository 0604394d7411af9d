import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

/// A fresh folder under /tmp for one test, removed afterwards.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("phosphor-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` at `relativePath`, creating folders, and returns the file.
    @discardableResult
    func write(_ relativePath: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file
    }
}

/// Small ROM images for library tests.
enum TestRom {
    static func nes(filler: UInt8 = 0xEA) -> [UInt8] {
        [0x4E, 0x45, 0x53, 0x1A, 1, 1] + [UInt8](repeating: 0, count: 10) + [UInt8](repeating: filler, count: 16384 + 8192)
    }

    static func gameBoy(title: String, color: Bool) -> [UInt8] {
        var rom = [UInt8](repeating: 0, count: 32768)
        rom[0x104..<0x134] = ArraySlice(HeaderView.gameBoyLogo)
        for (index, byte) in title.utf8.enumerated() { rom[0x134 + index] = byte }
        rom[0x143] = color ? 0x80 : 0
        return rom
    }

    static func gba(title: String) -> [UInt8] {
        var rom = [UInt8](repeating: 0, count: 8192)
        for (index, byte) in title.utf8.enumerated() { rom[0xA0 + index] = byte }
        rom[0xB2] = 0x96
        var sum: UInt8 = 0
        for offset in 0xA0...0xBC { sum = sum &- rom[offset] }
        rom[0xBD] = sum &- 0x19
        return rom
    }

    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }
}

/// Runs a command-line tool (zip, 7z; Debian zip and p7zip-full) in `folder`; fails the test on a non-zero exit.
@discardableResult
func runTool(_ arguments: [String], in folder: URL, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    XCTAssertEqual(process.terminationStatus, 0, "\(arguments.joined(separator: " ")): \(text)", file: file, line: line)
    return text
}

/// Writes a zip with stored (uncompressed) entries and exactly the names given, including hostile
/// ones (`../x`, `/abs/x`) that the zip tool would clean up. Format: PKWARE APPNOTE 4.3.7/4.3.12/4.3.16.
func writeStoredZip(_ entries: [(name: String, bytes: [UInt8])], to url: URL) throws {
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) } }
    var body: [UInt8] = []
    var directory: [UInt8] = []
    for entry in entries {
        let name = Array(entry.name.utf8)
        let crc = CRC32.checksum(entry.bytes)
        let size = UInt32(entry.bytes.count)
        let offset = UInt32(body.count)
        // version, flags (bit 11: UTF-8 names), method 0, time, date, crc, sizes, name length, extra length
        let common = le16(20) + le16(0x800) + le16(0) + le16(0) + le16(0x21) + le32(crc) + le32(size) + le32(size)
            + le16(name.count) + le16(0)
        body += le32(0x0403_4B50) + common + name + entry.bytes
        directory += le32(0x0201_4B50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name
    }
    let end = le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
        + le32(UInt32(directory.count)) + le32(UInt32(body.count)) + le16(0)
    try Data(body + directory + end).write(to: url)
}
