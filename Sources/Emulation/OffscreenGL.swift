internal import CEGL

/// An EGL or GL call that failed: the function's name and why.
public struct OffscreenGLError: Error, CustomStringConvertible, Equatable {
    public let function: String
    public let reason: String

    public var description: String { "\(function): \(reason)" }

    /// libEGL itself could not be opened (no EGL stack installed).
    public var eglIsMissing: Bool { function == "dlopen" || function == "dlsym" }
}

/// An OpenGL context with no window, and the framebuffer object a hardware-rendered core draws
/// into: Mesa's surfaceless EGL platform, else a GPU render node through GBM, else a pbuffer on
/// the default display (the C side, `CEGL`, tries them in that order). On a machine without a GPU
/// Mesa renders with llvmpipe.
///
/// Threading: the context is current on the thread that made it, the core thread; every member
/// is called there only. One context per process (the core's callbacks carry no context pointer).
final class OffscreenGL {
    /// The kind of context a core asks for.
    enum API: Equatable, CustomStringConvertible {
        case openGLCompatibility
        case openGLCore(major: Int, minor: Int)
        case openGLES(major: Int, minor: Int)

        var description: String {
            switch self {
            case .openGLCompatibility: "OpenGL 2.1 or later"
            case let .openGLCore(major, minor): "OpenGL \(major).\(minor) (core profile)"
            case let .openGLES(major, minor): "OpenGL ES \(major).\(minor)"
            }
        }
    }

    /// One frame read back: rows bottom first (GL's order), XRGB8888.
    struct Frame {
        let rows: UnsafeRawPointer
        let width: Int
        let height: Int
        let pitch: Int
        let tag: UInt64
    }

    private let context: OpaquePointer

    init(api: API, debug: Bool = false) throws {
        var error = cegl_error()
        let made: OpaquePointer?
        switch api {
        case .openGLCompatibility:
            made = cegl_create(CEGL_API_OPENGL_COMPATIBILITY, 2, 1, debug, &error)
        case let .openGLCore(major, minor):
            made = cegl_create(CEGL_API_OPENGL_CORE, Int32(major), Int32(minor), debug, &error)
        case let .openGLES(major, minor):
            made = cegl_create(CEGL_API_OPENGL_ES, Int32(major), Int32(minor), debug, &error)
        }
        guard let made else { throw OffscreenGLError(error) }
        context = made
    }

    deinit { cegl_destroy(context) }

    /// "surfaceless", "gbm" or "pbuffer".
    var platform: String { String(cString: cegl_platform(context)) }
    /// GL_VERSION and GL_RENDERER ("4.5 (Core Profile) Mesa 22.3.6", "llvmpipe (LLVM 15.0.6, 256 bits)").
    var version: String { String(cString: cegl_gl_version(context)) }
    var renderer: String { String(cString: cegl_gl_renderer(context)) }
    /// Whether reads go through pixel buffer objects (not on OpenGL ES 2.0).
    var readsAsynchronously: Bool { cegl_reads_asynchronously(context) }

    /// (Re)creates the framebuffer the core renders into.
    func makeFramebuffer(width: Int, height: Int, depth: Bool, stencil: Bool) throws {
        var error = cegl_error()
        guard cegl_make_framebuffer(context, Int32(width), Int32(height), depth, stencil, &error) == 0 else {
            throw OffscreenGLError(error)
        }
    }

    /// Starts reading the bottom-left `width` x `height` of the framebuffer (a pixel buffer
    /// object: returns without waiting for the transfer).
    func startRead(width: Int, height: Int, tag: UInt64) throws {
        var error = cegl_error()
        guard cegl_read_start(context, Int32(width), Int32(height), tag, &error) == 0 else {
            throw OffscreenGLError(error)
        }
    }

    /// Hands `body` the oldest read still pending (`newest` false: the one before the last
    /// started) or the last one (`newest` true); does nothing when none is pending. The pixels are
    /// valid during `body` only.
    func takeFrame(newest: Bool, _ body: (Frame) -> Void) throws {
        var error = cegl_error()
        var frame = cegl_frame()
        let result = cegl_read_take(context, newest, &frame, &error)
        guard result >= 0 else { throw OffscreenGLError(error) }
        guard result == 1, let rows = frame.rows else { return }
        defer { cegl_read_release(context) }
        body(Frame(rows: rows, width: Int(frame.width), height: Int(frame.height), pitch: Int(frame.pitch), tag: frame.tag))
    }

    /// The core's get_current_framebuffer and get_proc_address (C functions of the shim).
    static let currentFramebufferCallback: @convention(c) () -> UInt = cegl_current_framebuffer
    static let procAddressCallback: @convention(c) (UnsafePointer<CChar>?) -> (@convention(c) () -> Void)? = cegl_proc_address
}

extension OffscreenGLError {
    fileprivate init(_ error: cegl_error) {
        var copy = error
        let function = withUnsafeBytes(of: &copy.function) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let reason = withUnsafeBytes(of: &copy.reason) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        self.init(function: function.isEmpty ? "eglGetPlatformDisplayEXT" : function,
                  reason: reason.isEmpty ? "no EGL display" : reason)
    }
}
