import PhosphorKit

/// A fast block compressor for the rewind ring's deltas: Zstandard (the one the ring uses) or
/// LZ4 (measured beside it in `make bench`). Compresses one delta at a time; keeps a
/// scratch buffer, so one instance belongs to one thread (the core thread).
public protocol StateCompressor: AnyObject {
    /// "lz4", "zstd -1": for the benchmark tables.
    var name: String { get }
    /// The compressed form of `source`.
    func compress(_ source: UnsafeRawBufferPointer) throws -> [UInt8]
    /// Decompresses `compressed` into `destination`, which is exactly the original size.
    func decompress(_ compressed: [UInt8], into destination: UnsafeMutableRawBufferPointer) throws
}
