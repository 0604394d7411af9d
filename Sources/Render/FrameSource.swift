import PhosphorKit

/// A read-only view of one video frame as a libretro core hands it over: `height` rows of
/// `width` pixels, rows `pitch` bytes apart, in `format`.
///
/// The view does not own its bytes: it is valid only while the buffer it was made from is
/// (typically inside `withUnsafeBytes`). Build one per frame on the thread that renders it.
public struct FrameSource {
    public let bytes: UnsafeRawBufferPointer
    public let width: Int
    public let height: Int
    public let pitch: Int
    public let format: PixelFormat

    /// Checks that `bytes` holds every row, so drawing never reads past the buffer.
    public init(bytes: UnsafeRawBufferPointer, width: Int, height: Int, pitch: Int, format: PixelFormat) throws {
        guard width >= 0, height >= 0, pitch >= width * format.bytesPerPixel else {
            throw RenderError.invalidFrameGeometry(width: width, height: height, pitch: pitch)
        }
        let needed = FrameSource.requiredByteCount(height: height, pitch: pitch, width: width * format.bytesPerPixel)
        guard bytes.count >= needed else {
            throw RenderError.frameBufferTooSmall(width: width, height: height, pitch: pitch, needed: needed, byteCount: bytes.count)
        }
        self.bytes = bytes
        self.width = width
        self.height = height
        self.pitch = pitch
        self.format = format
    }

    /// Bytes a frame needs: every row but the last is `pitch` long, the last only `width` bytes
    /// (cores may hand over a buffer that ends right after the last pixel).
    static func requiredByteCount(height: Int, pitch: Int, width rowBytes: Int) -> Int {
        height == 0 ? 0 : (height - 1) * pitch + rowBytes
    }

    /// The whole frame as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The colour of one pixel (0x00RRGGBB). For tests and tools; the renderer decodes whole rows.
    public func color(x: Int, y: Int) -> RGBColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let offset = y * pitch + x * format.bytesPerPixel
        let value: UInt32
        if format == .xrgb8888 {
            value = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        } else {
            value = UInt32(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        }
        return RGBColor(rawValue: format.rgb(fromPixel: value))
    }
}

extension FrameSource {
    /// Runs `body` with a view of `bytes` (e.g. a `VideoFrame`'s pixels); the view must not
    /// escape `body`. Throws `RenderError` when the geometry does not fit the buffer.
    public static func withPixels<Result>(_ bytes: [UInt8], width: Int, height: Int, pitch: Int, format: PixelFormat,
                                          _ body: (FrameSource) throws -> Result) throws -> Result {
        try bytes.withUnsafeBytes { raw in
            try body(try FrameSource(bytes: raw, width: width, height: height, pitch: pitch, format: format))
        }
    }
}
