internal import CPng

/// PNG encoding and decoding through libpng. Any thread.
public struct PNGImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// RGBA8, row by row.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    public init(_ frame: VideoFrame) {
        self.init(width: frame.width, height: frame.height, rgba: frame.rgba())
    }

    public func encoded() throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = rgba.withUnsafeBufferPointer { pixels in
            cpng_encode_rgba(pixels.baseAddress, UInt32(width), UInt32(height), width * 4,
                             &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw SystemError(function: "png_image_write_to_memory", code: status,
                              detail: string(fromCBuffer: message))
        }
        defer { cpng_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    public init(decoding data: [UInt8]) throws {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { bytes in
            cpng_decode_rgba(bytes.baseAddress, bytes.count, &pixels, &width, &height, &message, message.count)
        }
        guard status == 0, let pixels else {
            throw SystemError(function: "png_image_finish_read", code: status, detail: string(fromCBuffer: message))
        }
        defer { cpng_free(pixels) }
        self.init(width: Int(width), height: Int(height),
                  rgba: Array(UnsafeBufferPointer(start: pixels, count: Int(width * height * 4))))
    }
}
