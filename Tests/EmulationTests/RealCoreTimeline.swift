import Foundation
import XCTest
@testable import Emulation
import PhosphorKit

/// A test cartridge on its system's Debian core, paused, driven one frame at a time: what the
/// rewind and run-ahead tests share. Each test loads the core once and stops it.
struct RealCoreTimeline {
    let thread: CoreThread
    let home: URL

    /// `rom` is a path from the repository's root (`Roms/nes/phosphor-test.nes`).
    static func romURL(_ rom: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(rom)
    }

    init(_ system: GameSystem, _ rom: String, rewind: RewindSettings = RewindSettings(),
         runAhead: RunAheadMode = .off) throws {
        guard let core = CoreCatalog.discover().core(for: system) else { throw XCTSkip("no \(system) core installed") }
        home = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID())")
        thread = CoreThread(configuration: CoreHost.Configuration(
            core: core, rom: Self.romURL(rom), paths: PhosphorPaths(environment: ["PHOSPHOR_HOME": home.path]), system: system),
            options: CoreThread.Options(realTime: false, rewind: rewind, runAhead: runAhead))
        thread.pause()
        try thread.start()
    }

    func stop() {
        thread.stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// The hash of the newest frame in the mailbox.
    func shownHash() throws -> UInt64 {
        var latest: VideoFrame?
        while let frame = thread.mailbox.takeLatest() { latest = frame }
        return try XCTUnwrap(latest, "no frame was shown").fnv1aHash()
    }

    /// Runs one frame holding `buttons` and returns the hash of the frame shown.
    func step(_ buttons: ButtonMask) throws -> UInt64 {
        thread.input.set(buttons, port: 0)
        try thread.step()
        return try shownHash()
    }
}
