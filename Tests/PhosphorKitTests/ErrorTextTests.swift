import Foundation
import Glibc
import XCTest
@testable import PhosphorKit

/// Every message a user sees is one line of plain words naming the file: no Foundation
/// domains and codes, no C calls.
final class ErrorTextTests: XCTestCase {
    func testFolderWhereAFileShouldBeNamesTheFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errortext-\(UUID())")
        let slot = folder.appendingPathComponent("game.state1")
        try FileManager.default.createDirectory(at: slot, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertThrowsError(try Data(contentsOf: slot)) { error in
            let line = ErrorText.line(error)
            XCTAssertFalse(line.contains("Domain="), line)
            XCTAssertFalse(line.contains("Code="), line)
            XCTAssertTrue(line.hasPrefix(slot.path), line)
            XCTAssertTrue(line.contains("is a folder"), line)
        }
    }

    func testSystemErrorsNameThePathNotTheCall() {
        XCTAssertEqual(ErrorText.line(SystemError(function: "open(/saves/Game.srm)", code: ENOENT)),
                       "/saves/Game.srm: no such file or folder")
        XCTAssertEqual(ErrorText.line(SystemError(function: "rename", code: ENOSPC)),
                       "the disk is full (free some space)")
        XCTAssertEqual(ErrorText.line(SystemError(function: "open(/a/b)", code: EROFS), file: URL(fileURLWithPath: "/a/b")),
                       "/a/b: the disk is read-only")
    }

    func testOneLineAndNoEscapes() {
        struct Twoline: Error, CustomStringConvertible { var description: String { "first \u{1B}[2J line\nsecond" } }
        XCTAssertEqual(ErrorText.line(Twoline()), "first \u{FFFD}[2J line")
    }
}
