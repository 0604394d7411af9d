import Foundation
import XCTest
@testable import Emulation
@testable import PhosphorKit

/// The core thread with a real Debian core in this process (one core load per test process:
/// cores are global state, so everything is checked in one test).
final class CoreThreadTests: XCTestCase {
    func testLifecycleOfARealCore() throws {
        let catalog = CoreCatalog.discover()
        guard let core = catalog.core(for: .nes) else { throw XCTSkip("no NES core installed") }
        let rom = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Roms/nes/phosphor-test.nes")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("core-thread-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let paths = PhosphorPaths(environment: ["PHOSPHOR_HOME": home.path])
        let ring = SampleRing(minimumCapacity: 1 << 16)
        let thread = CoreThread(configuration: CoreHost.Configuration(core: core, rom: rom, paths: paths, system: .nes),
                                options: CoreThread.Options(realTime: false), audioRing: ring)
        try thread.start()
        let (info, version) = try thread.perform { ($0.avInfo, $0.coreVersion) }
        XCTAssertEqual(info.baseWidth, 256)
        // The version retro_get_system_info reported when the host loaded the core (no second dlopen).
        XCTAssertEqual(version, try LibretroCoreInfoReader.version(of: core.path))
        XCTAssertNotEqual(version, "?")
        XCTAssertEqual(info.framesPerSecond, 60, accuracy: 0.5)

        // Running: frames arrive in the mailbox and samples in the ring.
        var frame: VideoFrame?
        let deadline = Date().addingTimeInterval(5)
        while frame == nil || thread.currentStatus.frameCount < 30, Date() < deadline {
            frame = thread.mailbox.takeLatest() ?? frame
        }
        XCTAssertNotNil(frame)
        XCTAssertGreaterThan(ring.count, 0)

        // Paused: the frame counter stands still; step runs exactly one frame.
        thread.pause()
        let pausedDeadline = Date().addingTimeInterval(5)
        while thread.currentStatus.state != .paused, Date() < pausedDeadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(thread.currentStatus.state, .paused)
        let before = try thread.perform { $0.frameCount }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(try thread.perform { $0.frameCount }, before)
        try thread.step()
        XCTAssertEqual(try thread.perform { $0.frameCount }, before + 1)

        // A state taken now and restored later gives back the same picture.
        let state = try thread.perform { try $0.serializeState() }
        thread.input.set(ButtonMask([.a, .start]), port: 0)
        for _ in 0..<10 { try thread.step() }
        XCTAssertThrowsError(try thread.perform { try $0.unserializeState(Array(state.prefix(state.count / 3))) })
        try thread.perform { try $0.unserializeState(state) }
        thread.input.set([], port: 0)

        thread.stop()
        XCTAssertEqual(thread.currentStatus.state, .stopped)
        XCTAssertThrowsError(try thread.perform { $0.frameCount }, "no jobs after stop")
    }
}
