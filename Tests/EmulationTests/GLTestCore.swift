import Foundation
@testable import Emulation
import PhosphorKit
import TestSupport

/// Builds Tests/Fixtures/glcore/glcore.c (the hardware-rendered test core) with the system C
/// compiler, and predicts its pictures.
enum GLTestCore {
    /// - Parameter es2: the OpenGL ES 2.0 variant (-DGLCORE_GLES2) instead of OpenGL 3.3 core.
    static func build(into folder: URL, es2: Bool = false) throws -> URL {
        try FixtureCore.build("glcore/glcore.c", into: folder, library: es2 ? "glcore-es2.so" : "glcore.so",
                              defines: es2 ? ["GLCORE_GLES2"] : [])
    }

    static func coreInfo(_ library: URL) -> CoreInfo {
        CoreInfo(path: library, name: library.deletingPathExtension().lastPathComponent, displayName: "glcore",
                 systems: [], extensions: ["gl"], needsFullPath: false, supportsNoGame: false,
                 displayVersion: nil, softwareRendered: false)
    }

    /// The picture glcore draws for frame `frame` (1-based: its counter after the frame ran), as
    /// 0xRRGGBB values, top row first. See glcore.c.
    static func expectedPicture(width: Int = 320, height: Int = 240, frame: UInt32, a: Bool = false, b: Bool = false,
                                stick: StickPosition = .centre) -> [UInt32] {
        let clear = (frame & 0xFF) << 16 | 0x20 << 8 | (a ? 0xC0 : 0x10)
        let squareLeft = width / 2 - 16 + Int(stick.x) / 1024, squareTop = height / 2 - 16 + Int(stick.y) / 1024
        var pixels = [UInt32](repeating: clear, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                if x < width / 4 && y < height / 8 { pixels[y * width + x] = 0xFF0000 }
                if (squareLeft..<squareLeft + 32).contains(x) && (squareTop..<squareTop + 32).contains(y) {
                    pixels[y * width + x] = b ? 0x0000FF : 0x00FF00
                }
            }
        }
        return pixels
    }

    /// A frame's pixels as 0xRRGGBB, top row first.
    static func rgb(_ frame: VideoFrame) -> [UInt32] {
        frame.pixels.withUnsafeBytes { raw in
            (0..<frame.width * frame.height).map { raw.load(fromByteOffset: $0 * 4, as: UInt32.self) & 0xFF_FFFF }
        }
    }
}
