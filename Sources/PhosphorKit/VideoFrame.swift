/// One video frame as the core produced it, rows packed (`pitch == width * bytesPerPixel`).
public struct VideoFrame: Sendable {
    public var width: Int
    public var height: Int
    public var format: PixelFormat
    public var pixels: [UInt8]
    /// The core frame counter when this picture was produced.
    public var sequence: UInt64
    /// When the core thread published it (the real clock): the play screen times its ticks by it.
    public var publishedAt: ContinuousClock.Instant

    public init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8], sequence: UInt64,
                publishedAt: ContinuousClock.Instant = .now) {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
        self.sequence = sequence
        self.publishedAt = publishedAt
    }

    public var pitch: Int { width * format.bytesPerPixel }

    /// Whether `other` shows exactly the same picture. Compares eight bytes at a time: the UI
    /// thread asks this for every frame (a repeated frame is not drawn again), and Array's `==`
    /// went byte by byte at a tenth of a millisecond per frame.
    public func hasSamePicture(as other: VideoFrame) -> Bool {
        guard width == other.width, height == other.height, format == other.format,
              pixels.count == other.pixels.count else { return false }
        return pixels.withUnsafeBytes { a in
            other.pixels.withUnsafeBytes { b in
                // 64 bytes at a time, one branch per block: the compiler vectorises the XORs
                // (about 3x faster than a branch per word; the UI runs this on every frame).
                let blocks = a.count / 64
                for block in 0..<blocks {
                    let base = block * 64
                    var difference: UInt64 = 0
                    for word in 0..<8 {
                        difference |= a.loadUnaligned(fromByteOffset: base + word * 8, as: UInt64.self)
                            ^ b.loadUnaligned(fromByteOffset: base + word * 8, as: UInt64.self)
                    }
                    if difference != 0 { return false }
                }
                for index in (blocks * 64)..<a.count where a[index] != b[index] { return false }
                return true
            }
        }
    }

    /// The picture as XRGB8888 pixels (0x00RRGGBB), row by row. Expands 5/6-bit channels
    /// by bit replication so white stays 0xFFFFFF.
    public func xrgb8888() -> [UInt32] {
        var result = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeBytes { raw in
            if format == .xrgb8888 {
                for i in 0..<(width * height) {
                    result[i] = raw.load(fromByteOffset: i * 4, as: UInt32.self).littleEndian & 0xFFFFFF
                }
            } else {
                for i in 0..<(width * height) {
                    result[i] = format.rgb(fromPixel: UInt32(raw.load(fromByteOffset: i * 2, as: UInt16.self).littleEndian))
                }
            }
        }
        return result
    }

    /// 64-bit FNV-1a over the frame as XRGB8888 little-endian rows: the hash `run --headless` prints.
    public func fnv1aHash() -> UInt64 {
        var hasher = FNV1a64()
        for pixel in xrgb8888() {
            var little = pixel.littleEndian
            withUnsafeBytes(of: &little) { hasher.combine($0) }
        }
        return hasher.value
    }

    /// RGBA8 bytes (alpha 255) for PNG encoding.
    public func rgba() -> [UInt8] {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for (i, pixel) in xrgb8888().enumerated() {
            bytes[i * 4] = UInt8(truncatingIfNeeded: pixel >> 16)
            bytes[i * 4 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            bytes[i * 4 + 2] = UInt8(truncatingIfNeeded: pixel)
        }
        return bytes
    }
}

/// 64-bit FNV-1a.
public struct FNV1a64 {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    public var hexDigits: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
