internal import CLz4
import PhosphorKit

/// LZ4 block compression (Debian's liblz4): the rewind ring's alternative to Zstandard, as fast
/// but 5–13 times larger on the test cartridges' deltas (`make bench`). One thread (scratch
/// buffer).
public final class LZ4Compressor: StateCompressor {
    /// LZ4's `acceleration`: 1 is its default; higher trades ratio for speed.
    public let acceleration: Int32
    private var scratch: [UInt8] = []

    public init(acceleration: Int32 = 1) { self.acceleration = acceleration }

    public var name: String { acceleration == 1 ? "lz4" : "lz4 fast \(acceleration)" }

    public func compress(_ source: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard source.count < Int(Int32.max) else {
            throw SystemError(function: "LZ4_compressBound", code: 0, detail: "\(source.count) bytes is too large for LZ4")
        }
        let bound = Int(clz4_compress_bound(Int32(source.count)))
        guard bound > 0 else {
            throw SystemError(function: "LZ4_compressBound", code: 0, detail: "\(source.count) bytes is too large for LZ4")
        }
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let written = scratch.withUnsafeMutableBytes { destination in
            clz4_compress(source.baseAddress?.assumingMemoryBound(to: CChar.self),
                          destination.baseAddress!.assumingMemoryBound(to: CChar.self),
                          Int32(source.count), Int32(destination.count), acceleration)
        }
        guard written > 0 || source.isEmpty else {
            throw SystemError(function: "LZ4_compress_fast", code: written, detail: "compressing \(source.count) bytes failed")
        }
        return Array(scratch[0..<Int(written)])
    }

    public func decompress(_ compressed: [UInt8], into destination: UnsafeMutableRawBufferPointer) throws {
        let written = compressed.withUnsafeBytes { source in
            clz4_decompress(source.baseAddress?.assumingMemoryBound(to: CChar.self),
                            destination.baseAddress?.assumingMemoryBound(to: CChar.self),
                            Int32(source.count), Int32(destination.count))
        }
        guard written == destination.count else {
            throw SystemError(function: "LZ4_decompress_safe", code: written,
                              detail: "the block gave \(written) bytes, not \(destination.count) (damaged)")
        }
    }
}
