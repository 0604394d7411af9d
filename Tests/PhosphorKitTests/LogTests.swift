import Foundation
import Glibc
import XCTest
@testable import PhosphorKit

/// The log stays bounded whatever writes into it: repeats are counted, floods are dropped and
/// counted, and the file is rotated at its cap (also when the bytes came around the `Log`, as
/// cores' printf into descriptors 1 and 2 do).
final class LogTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private var file: URL { folder.appendingPathComponent("phosphor.log") }

    private func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    private func bytesOnDisk() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).reduce(0) { total, name in
            total + ((try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }

    func testRepeatedLineIsCountedNotWrittenAgain() throws {
        let log = Log()
        try log.open(file)
        for _ in 0..<100_000 { log.write(.warning, "mGBA: GBA Memory: Bad memory Load32: 0x0E000000") }
        log.write(.info, "game over")
        let lines = text(file).split(separator: "\n")
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[0].hasSuffix("[warning] mGBA: GBA Memory: Bad memory Load32: 0x0E000000"))
        XCTAssertTrue(lines[1].hasSuffix("[warning] last message repeated 99999 times"))
        XCTAssertTrue(lines[2].hasSuffix("[info] game over"))
    }

    func testLongRunOfRepeatsIsReportedPeriodically() throws {
        let log = Log()
        try log.open(file, limits: Log.Limits(repeatReportInterval: .zero))
        for _ in 0..<3 { log.write(.error, "same") }
        XCTAssertEqual(text(file).components(separatedBy: "last message repeated 1 times").count - 1, 2)
    }

    func testFloodOfDistinctLinesIsDroppedBeyondTheBudget() throws {
        let log = Log()
        try log.open(file, limits: Log.Limits(linesPerSecond: 100))
        for index in 0..<10_000 { log.write(.debug, "frame \(index)") }
        XCTAssertLessThanOrEqual(text(file).split(separator: "\n").count, 101)
    }

    func testFileIsRotatedAtItsCapKeepingAFewFiles() throws {
        let log = Log()
        let cap = 64 * 1024
        try log.open(file, limits: Log.Limits(maximumBytes: cap, keptFiles: 2, linesPerSecond: .max))
        for index in 0..<100_000 { log.write(.debug, "core says: distinct line number \(index)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names, ["phosphor.log", "phosphor.log.1", "phosphor.log.2"])
        let total = try bytesOnDisk()
        XCTAssertLessThanOrEqual(total, 3 * cap, "about 5 MB written, \(total) bytes kept")
        XCTAssertTrue(text(file).contains("distinct line number 99999"), "the newest lines are in phosphor.log")
    }

    /// Cores printf into descriptors 1 and 2, which point at the same file during a session: those
    /// bytes never pass through `write`, so the session's periodic `enforceSizeLimit` measures the
    /// file itself and rotates it.
    func testBytesWrittenAroundTheLogAreRotatedByTheSizeCheck() throws {
        let log = Log()
        let cap = 32 * 1024
        try log.open(file, limits: Log.Limits(maximumBytes: cap, keptFiles: 3))
        log.write(.info, "session open")
        let printf = open(file.path, O_WRONLY | O_APPEND)
        XCTAssertGreaterThanOrEqual(printf, 0)
        let junk = [UInt8](repeating: 0x41, count: 100 * 1024)
        XCTAssertEqual(junk.withUnsafeBytes { Glibc.write(printf, $0.baseAddress, $0.count) }, junk.count)
        close(printf)
        log.enforceSizeLimit()
        log.write(.info, "after the rotation")
        XCTAssertEqual(text(file).split(separator: "\n").count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path + ".1"))
    }

    /// A read-only or full data folder: the log cannot be opened, start-up goes on, lines stay in
    /// memory and the reason is kept for the one notice.
    func testUnopenableFileKeepsTheLogInMemory() throws {
        let blocker = folder.appendingPathComponent("data")
        try Data().write(to: blocker)   // a file where the folder should be: ENOTDIR, as root too
        let log = Log()
        XCTAssertThrowsError(try log.open(blocker.appendingPathComponent("phosphor.log")))
        XCTAssertNotNil(log.openFailure)
        XCTAssertNil(log.file)
        log.write(.error, "still fine")
        XCTAssertFalse(log.redirectStandardStreams(), "no file: the session sends 1 and 2 to /dev/null")
    }
}
