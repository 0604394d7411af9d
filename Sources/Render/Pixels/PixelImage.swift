import PhosphorKit

/// A picture as packed 8-bit RGB (3 bytes a pixel, rows without padding): what the kitty
/// graphics protocol takes with `f=24`, and what the sixel encoder reads. Any thread (value type).
public struct PixelImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "\(rgb.count) bytes for \(width)x\(height) RGB")
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// `region` of `source` (clipped to the frame), decoded from the core's pixel format.
    /// Every frame of every pixel encoder starts here, so rows are packed four pixels (twelve
    /// bytes, three 32-bit stores) at a time, straight from the frame when it is XRGB8888.
    public init(_ source: FrameSource, region: PixelRect) {
        let clipped = region.intersection(source.bounds)
        width = clipped.width
        height = clipped.height
        rgb = [UInt8](repeating: 0, count: width * height * 3)
        guard width > 0, height > 0, let base = source.bytes.baseAddress else { return }
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { row.deallocate() }
        let bytesPerPixel = source.format.bytesPerPixel
        let width = self.width
        let decoder = PixelDecoder(format: source.format)
        rgb.withUnsafeMutableBytes { output in
            for y in 0..<clipped.height {
                let offset = (clipped.y + y) * source.pitch + clipped.x * bytesPerPixel
                let pixels: UnsafePointer<UInt32>
                // XRGB8888 is little-endian 0x00RRGGBB: on a little-endian host its words are the
                // pixels as they are (aligned, as a core's frame is).
                if Self.isLittleEndianHost, source.format == .xrgb8888, offset % MemoryLayout<UInt32>.alignment == 0,
                   Int(bitPattern: base) % MemoryLayout<UInt32>.alignment == 0 {
                    pixels = (base + offset).assumingMemoryBound(to: UInt32.self)
                } else {
                    decoder.decode(base + offset, count: width, into: row)
                    pixels = UnsafePointer(row)
                }
                Self.pack(pixels, count: width, into: output.baseAddress! + y * width * 3)
            }
        }
    }

    private static let isLittleEndianHost = 1.littleEndian == 1

    /// `count` pixels 0x??RRGGBB (the top byte ignored) as R, G, B bytes at `output`.
    @inline(__always)
    private static func pack(_ pixels: UnsafePointer<UInt32>, count: Int, into output: UnsafeMutableRawPointer) {
        // 0x??RRGGBB byte-swapped and shifted is 0x00BBGGRR: R, G, B in memory order.
        @inline(__always) func bytes(_ pixel: UInt32) -> UInt32 { pixel.byteSwapped >> 8 }
        var x = 0
        var to = 0
        while x + 4 <= count {
            let a = bytes(pixels[x]), b = bytes(pixels[x + 1]), c = bytes(pixels[x + 2]), d = bytes(pixels[x + 3])
            output.storeBytes(of: (a | b << 24).littleEndian, toByteOffset: to, as: UInt32.self)
            output.storeBytes(of: (b >> 8 | c << 16).littleEndian, toByteOffset: to + 4, as: UInt32.self)
            output.storeBytes(of: (c >> 16 | d << 8).littleEndian, toByteOffset: to + 8, as: UInt32.self)
            x += 4
            to += 12
        }
        while x < count {
            let pixel = pixels[x]
            output.storeBytes(of: UInt8(truncatingIfNeeded: pixel >> 16), toByteOffset: to, as: UInt8.self)
            output.storeBytes(of: UInt8(truncatingIfNeeded: pixel >> 8), toByteOffset: to + 1, as: UInt8.self)
            output.storeBytes(of: UInt8(truncatingIfNeeded: pixel), toByteOffset: to + 2, as: UInt8.self)
            x += 1
            to += 3
        }
    }

    /// A decoded PNG (box art, a state's screenshot), its alpha dropped.
    public init(_ png: PNGImage) {
        width = png.width
        height = png.height
        let count = png.width * png.height
        rgb = [UInt8](repeating: 0, count: count * 3)
        for index in 0..<count {
            rgb[index * 3] = png.rgba[index * 4]
            rgb[index * 3 + 1] = png.rgba[index * 4 + 1]
            rgb[index * 3 + 2] = png.rgba[index * 4 + 2]
        }
    }

    /// The colour at (x, y) as 0x00RRGGBB.
    public func color(x: Int, y: Int) -> UInt32 {
        let index = (y * width + x) * 3
        return UInt32(rgb[index]) << 16 | UInt32(rgb[index + 1]) << 8 | UInt32(rgb[index + 2])
    }

    /// Nearest-neighbour resampling to `width` x `height` (for pictures that must shrink).
    public func resampled(width newWidth: Int, height newHeight: Int) -> PixelImage {
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        for y in 0..<newHeight {
            let sourceY = y * height / newHeight
            for x in 0..<newWidth {
                let from = (sourceY * width + x * width / newWidth) * 3
                let to = (y * newWidth + x) * 3
                output[to] = rgb[from]
                output[to + 1] = rgb[from + 1]
                output[to + 2] = rgb[from + 2]
            }
        }
        return PixelImage(width: newWidth, height: newHeight, rgb: output)
    }
}
