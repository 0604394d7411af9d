/// The bytes of one encoded frame, written through a raw pointer. `TerminalEncoder` makes room
/// once per row (`reserve`, for the most that row can take) and then appends byte by byte with
/// no capacity or uniqueness check: an `[UInt8]` pays both on every `append`, which was a tenth
/// of the encoder's instructions on a scrolling game (callgrind). Used by one encoder, on its
/// thread.
struct ByteWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written since the last `removeAll`.
    private(set) var count = 0

    init(capacity: Int = 64 << 10) {
        self.capacity = max(capacity, 64)
        start = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Room for at least `extra` more bytes: the appends that follow, up to that many, are unchecked.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(to: count &+ extra) }
    }

    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = larger
    }

    /// One byte, within the room `reserve` made (checked in debug builds only).
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        assert(count < capacity, "ByteWriter: append past the reserved room")
        start[count] = byte
        count &+= 1
    }

    /// Copies `bytes` (makes its own room).
    mutating func append(contentsOf bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }  // an empty array may have no storage to copy from
        reserve(bytes.count)
        bytes.withUnsafeBufferPointer { source in
            (start + count).update(from: source.baseAddress!, count: source.count)
        }
        count &+= bytes.count
    }

    /// `byte` `repeats` times (makes its own room).
    mutating func append(_ byte: UInt8, repeating repeats: Int) {
        reserve(repeats)
        (start + count).update(repeating: byte, count: repeats)
        count &+= repeats
    }

    mutating func removeAll() { count = 0 }

    /// Appends what was written to `output`.
    func copy(to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }
}
