internal import CZstd
import PhosphorKit

/// Zstandard one-shot compression (Debian's libzstd) at a fixed level; negative levels are its
/// fast modes. Measured against LZ4 in `make bench`. One thread (scratch buffer).
public final class ZstdCompressor: StateCompressor {
    public let level: Int32
    private var scratch: [UInt8] = []

    public init(level: Int32 = 1) { self.level = level }

    public var name: String { "zstd \(level)" }

    public func compress(_ source: UnsafeRawBufferPointer) throws -> [UInt8] {
        let bound = czstd_compress_bound(source.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let written = scratch.withUnsafeMutableBytes { destination in
            czstd_compress(destination.baseAddress, destination.count, source.baseAddress, source.count, level)
        }
        try Self.check(written, function: "ZSTD_compress")
        return Array(scratch[0..<written])
    }

    public func decompress(_ compressed: [UInt8], into destination: UnsafeMutableRawBufferPointer) throws {
        let written = compressed.withUnsafeBytes { source in
            czstd_decompress(destination.baseAddress, destination.count, source.baseAddress, source.count)
        }
        try Self.check(written, function: "ZSTD_decompress")
        guard written == destination.count else {
            throw SystemError(function: "ZSTD_decompress", code: 0,
                              detail: "the frame gave \(written) bytes, not \(destination.count) (damaged)")
        }
    }

    private static func check(_ result: Int, function: String) throws {
        guard czstd_is_error(result) != 0 else { return }
        throw SystemError(function: function, code: 0, detail: String(cString: czstd_error_name(result)))
    }
}
