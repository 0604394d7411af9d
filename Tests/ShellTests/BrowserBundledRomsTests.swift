import Foundation
import XCTest
@testable import Shell

final class BrowserBundledRomsTests: XCTestCase {
    private func makeRomsFolder(in root: URL) throws -> URL {
        let roms = root.appendingPathComponent("Roms")
        try FileManager.default.createDirectory(at: roms.appendingPathComponent("nes"), withIntermediateDirectories: true)
        try Data([0x4E, 0x45, 0x53, 0x1A]).write(to: roms.appendingPathComponent("nes/phosphor-test.nes"))
        return roms
    }

    func testFindsRomsWalkingUpFromTheExecutable() throws {
        let folder = try TemporaryFolder("bundled-walk")
        defer { folder.remove() }
        let roms = try makeRomsFolder(in: folder.url)
        let executable = folder.url.appendingPathComponent(".build/debug/phosphor")
        let found = BundledRoms.locate(environment: [:], executable: executable,
                                       currentDirectory: URL(fileURLWithPath: "/", isDirectory: true))
        XCTAssertEqual(found?.standardizedFileURL.path, roms.standardizedFileURL.path)
    }

    func testEnvironmentOverrideWinsAndAFolderWithoutCartridgesIsIgnored() throws {
        let folder = try TemporaryFolder("bundled-env")
        defer { folder.remove() }
        let roms = try makeRomsFolder(in: folder.url.appendingPathComponent("elsewhere"))
        let nowhere = URL(fileURLWithPath: "/", isDirectory: true)
        XCTAssertEqual(BundledRoms.locate(environment: ["PHOSPHOR_ROMS": roms.path], executable: nil, currentDirectory: nowhere)?.path,
                       roms.standardizedFileURL.path)
        XCTAssertNil(BundledRoms.locate(environment: ["PHOSPHOR_ROMS": folder.url.path], executable: nil, currentDirectory: nowhere))
    }
}
