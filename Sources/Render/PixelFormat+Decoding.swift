import PhosphorKit

extension PixelFormat {
    /// Decodes `count` pixels starting at byte `offset` of `bytes` into `output` as 0x00RRGGBB.
    /// The format switch happens once per row, not once per pixel.
    @inlinable
    func decodeRow(_ bytes: UnsafeRawBufferPointer, offset: Int, count: Int, into output: UnsafeMutablePointer<UInt32>) {
        guard let base = bytes.baseAddress else { return }
        let start = base + offset
        switch self {
        case .xrgb8888:
            for i in 0..<count {
                output[i] = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)) & 0xFF_FFFF
            }
        case .rgb565:
            for i in 0..<count {
                let value = UInt32(UInt16(littleEndian: start.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
                output[i] = PixelFormat.rgb565.rgb(fromPixel: value)
            }
        case .rgb1555:
            for i in 0..<count {
                let value = UInt32(UInt16(littleEndian: start.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
                output[i] = PixelFormat.rgb1555.rgb(fromPixel: value)
            }
        }
    }
}
