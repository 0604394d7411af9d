import PhosphorKit

/// Decodes a core's pixel values to 0x00RRGGBB by table, and compares them raw.
///
/// The 16-bit formats widen each channel by bit replication, so every output bit is a copy of
/// exactly one input bit: a pixel decodes as the OR of its low byte's and its high byte's
/// decodings, two 256-entry look-ups instead of three channel expansions. Two raw values are the
/// same colour exactly when they are equal under `valueMask` (the bits the decoding reads), so
/// colours can be counted on the raw values without decoding them.
///
/// Value type built once per format; any thread.
struct PixelDecoder {
    let format: PixelFormat
    /// The bits of a stored pixel that make its colour (1555's top bit and XRGB's X byte do not).
    let valueMask: UInt32
    /// 16-bit formats: decodings of the low byte (0..<256) then of the high byte (256..<512).
    private let table: [UInt32]

    init(format: PixelFormat) {
        self.format = format
        switch format {
        case .xrgb8888:
            valueMask = 0xFF_FFFF
            table = []
        case .rgb565:
            valueMask = 0xFFFF
            table = PixelDecoder.byteTable(format)
        case .rgb1555:
            valueMask = 0x7FFF
            table = PixelDecoder.byteTable(format)
        }
    }

    private static func byteTable(_ format: PixelFormat) -> [UInt32] {
        (0..<256).map { format.rgb(fromPixel: UInt32($0)) } + (0..<256).map { format.rgb(fromPixel: UInt32($0) << 8) }
    }

    /// One stored value (as loaded, little-endian) to 0x00RRGGBB; equals `format.rgb(fromPixel:)`.
    func rgb(fromPixel value: UInt32) -> UInt32 {
        if format == .xrgb8888 { return value & 0xFF_FFFF }
        return table[Int(value & 0xFF)] | table[256 + Int((value >> 8) & 0xFF)]
    }

    /// Decodes the pixels of the row at `row` in the columns `columns[0..<count]`, handing each
    /// to `store` (output index, 0x00RRGGBB): straight into the canvas cells, no row in between.
    @inline(__always)
    func decode(_ row: UnsafeRawPointer, columns: UnsafePointer<Int32>, count: Int, store: (Int, UInt32) -> Void) {
        if format == .xrgb8888 {
            for x in 0..<count {
                store(x, UInt32(littleEndian: row.loadUnaligned(fromByteOffset: Int(columns[x]) &* 4, as: UInt32.self)) & 0xFF_FFFF)
            }
            return
        }
        table.withUnsafeBufferPointer { buffer in
            let low = buffer.baseAddress!, high = low + 256
            for x in 0..<count {
                let value = UInt16(littleEndian: row.loadUnaligned(fromByteOffset: Int(columns[x]) &* 2, as: UInt16.self))
                store(x, low[Int(value & 0xFF)] | high[Int(value >> 8)])
            }
        }
    }

    /// Decodes `count` consecutive pixels starting at `row` into `output`.
    func decode(_ row: UnsafeRawPointer, count: Int, into output: UnsafeMutablePointer<UInt32>) {
        if format == .xrgb8888 {
            for x in 0..<count {
                output[x] = UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)) & 0xFF_FFFF
            }
            return
        }
        table.withUnsafeBufferPointer { buffer in
            let low = buffer.baseAddress!, high = low + 256
            for x in 0..<count {
                let value = UInt16(littleEndian: row.loadUnaligned(fromByteOffset: x &* 2, as: UInt16.self))
                output[x] = low[Int(value & 0xFF)] | high[Int(value >> 8)]
            }
        }
    }

    /// Notes into `values` the colours of `count` consecutive pixels at `row`, as masked raw
    /// values. `previous` is the last XRGB value noted (carried across rows): pixel art repeats a
    /// colour along a row, so only a change can be a new colour. 16-bit pixels go to a bit per
    /// value (`DistinctValues.noteSixteenBitPixels`), XRGB pixels to the table
    /// (`DistinctValues.noteThirtyTwoBitPixels`).
    func noteColors(_ row: UnsafeRawPointer, count: Int, previous: inout UInt32, in values: inout DistinctValues) {
        if format != .xrgb8888 {
            values.noteSixteenBitPixels(row, count: count, mask: UInt16(valueMask))
            return
        }
        values.noteThirtyTwoBitPixels(row, count: count, previous: &previous)
    }
}
