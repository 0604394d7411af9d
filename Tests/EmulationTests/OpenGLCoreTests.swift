import Foundation
import XCTest
@testable import Emulation
@testable import PhosphorKit

/// Hardware-rendered cores through offscreen EGL, with the test core glcore (Tests/Fixtures/glcore)
/// on whatever EGL the machine has: Mesa's llvmpipe in CI (no display, no GPU). Every picture read
/// back is compared pixel for pixel with what glcore is known to draw.
final class OpenGLCoreTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("opengl-core-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        unsetenv("GLCORE_TOP_LEFT")
        unsetenv("GLCORE_JOURNAL")
        try? FileManager.default.removeItem(at: folder)
    }

    private func load(_ library: URL, input: InputState = InputState(), mailbox: FrameMailbox) throws -> CoreHost {
        let rom = folder.appendingPathComponent("game.gl")
        try Data([1, 2, 3, 4]).write(to: rom)
        let paths = PhosphorPaths(environment: ["PHOSPHOR_HOME": folder.appendingPathComponent("home").path])
        let configuration = CoreHost.Configuration(core: GLTestCore.coreInfo(library), rom: rom, paths: paths, system: nil)
        return try CoreHost(configuration: configuration, connections: CoreConnections(mailbox: mailbox, input: input))
    }

    /// Runs `count` frames and returns the newest frame in the mailbox after publishing the pending one.
    private func run(_ host: CoreHost, frames count: Int, mailbox: FrameMailbox) throws -> VideoFrame {
        for _ in 0..<count { host.runFrame() }
        host.publishPendingFrame()
        return try XCTUnwrap(mailbox.takeLatest(), "a frame arrived")
    }

    private func assertPicture(_ frame: VideoFrame, _ expected: [UInt32], _ label: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(frame.format, .xrgb8888, label, file: file, line: line)
        XCTAssertEqual(frame.width, 320, label, file: file, line: line)
        XCTAssertEqual(frame.height, 240, label, file: file, line: line)
        let actual = GLTestCore.rgb(frame)
        guard actual != expected else { return }
        let first = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }!
        XCTFail("\(label): pixel (\(first.offset % 320), \(first.offset / 320)) is \(String(first.element.0, radix: 16)), "
                + "expected \(String(first.element.1, radix: 16)); "
                + "\(zip(actual, expected).filter { $0 != $1 }.count) pixels differ", file: file, line: line)
    }

    /// OpenGL 3.3 core: exact pictures, buttons and the analog stick, the pipelined read-back,
    /// a state round trip, and context_reset / context_destroy in libretro's order.
    func testOpenGLCoreProfilePicturesAreExact() throws {
        let library = try GLTestCore.build(into: folder)
        let journal = folder.appendingPathComponent("journal")
        setenv("GLCORE_JOURNAL", journal.path, 1)
        let mailbox = FrameMailbox(), input = InputState()
        let host = try load(library, input: input, mailbox: mailbox)
        XCTAssertEqual(try String(contentsOf: journal, encoding: .utf8), "reset\n", "context_reset once the game is loaded")

        assertPicture(try run(host, frames: 3, mailbox: mailbox), GLTestCore.expectedPicture(frame: 3), "frame 3")

        // Pipelined: while frames run, the mailbox holds the frame before the one just rendered.
        host.runFrame()
        host.runFrame()
        let behind = try XCTUnwrap(mailbox.takeLatest())
        XCTAssertEqual(behind.sequence, 4, "frame 4 published while frame 5 was read")
        assertPicture(behind, GLTestCore.expectedPicture(frame: 4), "frame 4, one behind")
        host.publishPendingFrame()
        XCTAssertEqual(try XCTUnwrap(mailbox.takeLatest()).sequence, 5)

        // Buttons and the stick change the picture.
        input.set(ButtonMask([.a, .b]), port: 0)
        let pushed = StickPosition(x: 16384, y: -32768)
        input.setStick(.left, to: pushed, port: 0)
        assertPicture(try run(host, frames: 1, mailbox: mailbox),
                      GLTestCore.expectedPicture(frame: 6, a: true, b: true, stick: pushed), "A, B and the stick up-right")
        input.set([], port: 0)
        input.setStick(.left, to: .centre, port: 0)

        // A state round trip gives the same frame.
        let state = try host.serializeState()
        let afterSave = try run(host, frames: 1, mailbox: mailbox)
        _ = try run(host, frames: 20, mailbox: mailbox)
        try host.unserializeState(state)
        let afterLoad = try run(host, frames: 1, mailbox: mailbox)
        assertPicture(afterLoad, GLTestCore.rgb(afterSave), "the frame after the state loads")
        assertPicture(afterLoad, GLTestCore.expectedPicture(frame: 7), "frame 7 again")

        host.unload()
        XCTAssertEqual(try String(contentsOf: journal, encoding: .utf8), "reset\ndestroy\nunload\n",
                       "context_destroy before the game unloads")
    }

    /// A core that renders with top-left origin draws upside down itself: no flip, same picture.
    func testTopLeftOriginIsNotFlipped() throws {
        let library = try GLTestCore.build(into: folder)
        setenv("GLCORE_TOP_LEFT", "1", 1)
        let mailbox = FrameMailbox()
        let host = try load(library, mailbox: mailbox)
        defer { host.unload() }
        assertPicture(try run(host, frames: 2, mailbox: mailbox), GLTestCore.expectedPicture(frame: 2), "top-left origin")
    }

    /// OpenGL ES 2.0 shaders (GLSL 1.00). Mesa answers a 2.0 request with an ES 3.2 context, so the
    /// read goes through pixel buffer objects here too; a real 2.0-only driver reads at once.
    func testOpenGLES2PicturesAreExact() throws {
        let library = try GLTestCore.build(into: folder, es2: true)
        let mailbox = FrameMailbox(), input = InputState()
        let host = try load(library, input: input, mailbox: mailbox)
        defer { host.unload() }
        assertPicture(try run(host, frames: 9, mailbox: mailbox), GLTestCore.expectedPicture(frame: 9), "ES frame 9")
        let stick = StickPosition(x: -32768, y: 20000)
        input.setStick(.left, to: stick, port: 0)
        assertPicture(try run(host, frames: 1, mailbox: mailbox), GLTestCore.expectedPicture(frame: 10, stick: stick),
                      "ES stick down-left")
    }

    /// Vulkan and Direct3D are refused with one line naming what is missing; GL versions map as asked.
    func testRequestedAPIs() {
        for (type, name) in [(UInt32(6), "Vulkan"), (7, "Direct3D")] {
            guard case .failure(let refusal) = HardwareRenderer.api(contextType: type, major: 1, minor: 0) else {
                return XCTFail("\(name) accepted")
            }
            XCTAssertEqual(refusal.needs, name)
            XCTAssertTrue(refusal.reason.contains("not \(name)"), refusal.reason)
        }
        XCTAssertEqual(try HardwareRenderer.api(contextType: 3, major: 3, minor: 3).get(), .openGLCore(major: 3, minor: 3))
        XCTAssertEqual(try HardwareRenderer.api(contextType: 2, major: 0, minor: 0).get(), .openGLES(major: 2, minor: 0))
        XCTAssertEqual(try HardwareRenderer.api(contextType: 5, major: 3, minor: 1).get(), .openGLES(major: 3, minor: 1))
        XCTAssertEqual(try HardwareRenderer.api(contextType: 1, major: 0, minor: 0).get(), .openGLCompatibility)
    }

    /// A context version no driver has is refused with the EGL function and the Debian packages.
    func testUnavailableVersionIsNamed() {
        XCTAssertThrowsError(try OffscreenGL(api: .openGLCore(major: 9, minor: 9))) { error in
            let refusal = HardwareRenderRefusal.contextUnavailable(api: .openGLCore(major: 9, minor: 9),
                                                                   error: error as! OffscreenGLError)
            XCTAssertEqual(refusal.needs, "OpenGL 9.9 (core profile)")
            XCTAssertTrue(refusal.reason.contains("eglCreateContext"), refusal.reason)
            XCTAssertTrue(refusal.reason.contains("libegl-mesa0"), refusal.reason)
        }
    }
}
