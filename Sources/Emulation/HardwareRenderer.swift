internal import CLibretro
import PhosphorKit

/// What a hardware-rendered core gets instead of a software frame buffer: an offscreen OpenGL
/// context (`OffscreenGL`), the framebuffer it draws into, the calls libretro promises around
/// them (`context_reset` after the game loaded, `context_destroy` before it unloads), and the
/// read-back of each finished frame into the mailbox as an ordinary XRGB8888 frame.
///
/// Reads are pipelined: the read of frame N starts when the core hands it over and is taken (and
/// published) when frame N+1 has been handed over, so the transfer overlaps the core's next frame.
/// Whoever stops running frames (a pause, a job, the end) calls `publishNewest` so the last frame
/// is not left behind.
///
/// Threading: core thread only (the context is current there).
final class HardwareRenderer {
    /// What the core asked for, as C gave it; the callbacks stay the core's.
    private let request: retro_hw_render_callback
    let api: OffscreenGL.API
    private let gl: OffscreenGL
    private var framebufferSize = (width: 0, height: 0)
    private var started = false

    /// The kind of context a request names, or why it cannot be had (Vulkan, Direct3D).
    /// `contextType` is a `retro_hw_context_type`; the version is the request's (core GL, GLES 3.1+).
    static func api(contextType: UInt32, major: Int, minor: Int) -> Result<OffscreenGL.API, HardwareRenderRefusal> {
        switch retro_hw_context_type(rawValue: contextType) {
        case RETRO_HW_CONTEXT_OPENGL: return .success(.openGLCompatibility)
        // Core profiles start at 3.2; a core asking for less gets 3.2.
        case RETRO_HW_CONTEXT_OPENGL_CORE: return .success(.openGLCore(major: max(major, 3), minor: major >= 3 ? minor : 2))
        case RETRO_HW_CONTEXT_OPENGLES2: return .success(.openGLES(major: 2, minor: 0))
        case RETRO_HW_CONTEXT_OPENGLES3: return .success(.openGLES(major: 3, minor: 0))
        case RETRO_HW_CONTEXT_OPENGLES_VERSION: return .success(.openGLES(major: max(major, 3), minor: minor))
        case RETRO_HW_CONTEXT_VULKAN: return .failure(.unsupportedAPI("Vulkan"))
        case RETRO_HW_CONTEXT_DIRECT3D: return .failure(.unsupportedAPI("Direct3D"))
        default: return .failure(.unsupportedAPI("a rendering API numbered \(contextType)"))
        }
    }

    /// Makes the context for `request` (current on this thread from now on) and fills in the
    /// frontend's half of it: get_current_framebuffer and get_proc_address.
    init(request: UnsafeMutablePointer<retro_hw_render_callback>) throws(HardwareRenderRefusal) {
        let api: OffscreenGL.API
        switch Self.api(contextType: request.pointee.context_type.rawValue, major: Int(request.pointee.version_major),
                        minor: Int(request.pointee.version_minor)) {
        case .success(let value): api = value
        case .failure(let refusal): throw refusal
        }
        do {
            gl = try OffscreenGL(api: api, debug: request.pointee.debug_context)
        } catch let error as OffscreenGLError {
            throw error.eglIsMissing ? .eglMissing(api: api, error: error) : .contextUnavailable(api: api, error: error)
        } catch {
            throw .contextUnavailable(api: api, error: OffscreenGLError(function: "eglCreateContext", reason: "\(error)"))
        }
        self.api = api
        request.pointee.get_current_framebuffer = OffscreenGL.currentFramebufferCallback
        request.pointee.get_proc_address = OffscreenGL.procAddressCallback
        self.request = request.pointee
        Log.info("OpenGL for the core: \(api) on EGL \(gl.platform): \(gl.version), \(gl.renderer)")
    }

    /// After the game loaded: the framebuffer at the core's largest picture, then `context_reset`.
    func start(maxWidth: Int, maxHeight: Int) throws {
        try resizeFramebuffer(width: maxWidth, height: maxHeight)
        started = true
        request.context_reset?()
    }

    /// A larger largest picture (SET_SYSTEM_AV_INFO) needs a larger framebuffer.
    func resizeFramebuffer(width: Int, height: Int) throws {
        let size = (width: max(width, 1), height: max(height, 1))
        guard size.width > framebufferSize.width || size.height > framebufferSize.height else { return }
        try gl.makeFramebuffer(width: size.width, height: size.height, depth: request.depth, stencil: request.stencil)
        framebufferSize = size
    }

    /// Before the game unloads.
    func stop() {
        guard started else { return }
        started = false
        request.context_destroy?()
    }

    /// The core handed over frame `tag` (RETRO_HW_FRAME_BUFFER_VALID, `width` x `height`): start its
    /// read and publish the one before it.
    func frameDidFinish(width: Int, height: Int, tag: UInt64, pipelined: Bool = true, into mailbox: FrameMailbox) throws {
        let width = min(width, framebufferSize.width), height = min(height, framebufferSize.height)
        try gl.startRead(width: width, height: height, tag: tag)
        try publish(newest: !pipelined || !gl.readsAsynchronously, into: mailbox)
    }

    /// Publishes the last frame read, if it was not yet (the core stops running frames for now).
    func publishNewest(into mailbox: FrameMailbox) throws {
        try publish(newest: true, into: mailbox)
    }

    private func publish(newest: Bool, into mailbox: FrameMailbox) throws {
        let flips = request.bottom_left_origin
        try gl.takeFrame(newest: newest) { frame in
            // Bottom-left origin: GL's first row is the picture's last, so walk the rows backwards.
            let first = flips ? frame.rows + (frame.height - 1) * frame.pitch : frame.rows
            mailbox.publish(pixels: first, width: frame.width, height: frame.height,
                            pitch: flips ? -frame.pitch : frame.pitch, format: .xrgb8888, sequence: frame.tag)
        }
    }
}

/// Why a core's SET_HW_RENDER was refused: one line for the user naming what is missing.
enum HardwareRenderRefusal: Error, Equatable {
    case unsupportedAPI(String)
    case eglMissing(api: OffscreenGL.API, error: OffscreenGLError)
    case contextUnavailable(api: OffscreenGL.API, error: OffscreenGLError)

    /// What the core needs ("OpenGL 3.3 (core profile)", "Vulkan").
    var needs: String {
        switch self {
        case .unsupportedAPI(let name): name
        case .eglMissing(let api, _), .contextUnavailable(let api, _): "\(api)"
        }
    }

    /// Why it cannot have it here, and how to get it.
    var reason: String {
        switch self {
        case .unsupportedAPI(let name):
            "Phosphor renders OpenGL offscreen but not \(name); use an OpenGL core for this system"
        case .eglMissing(_, let error):
            "no EGL library (\(error)); install the Debian packages libegl1 libegl-mesa0 libgl1-mesa-dri"
        case .contextUnavailable(_, let error):
            "the OpenGL driver does not offer it (\(error)); install Mesa (Debian libegl-mesa0 libgl1-mesa-dri) or a newer driver"
        }
    }
}
