import Synchronization

/// A lock-free single-producer single-consumer ring of interleaved stereo Int16 samples.
/// The core thread is the only writer; the audio thread is the only reader. Neither blocks:
/// a full ring drops the newest samples (and counts them), an empty ring returns fewer.
public final class SampleRing: @unchecked Sendable {
    /// Capacity in samples (not frames); a power of two.
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Int16>
    private let head = Atomic<Int>(0)  // total samples written (producer owns)
    private let tail = Atomic<Int>(0)  // total samples read (consumer owns)
    private let droppedSamples = Atomic<Int>(0)

    /// - Parameter minimumCapacity: samples; rounded up to a power of two.
    public init(minimumCapacity: Int) {
        var size = 1024
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
    }

    deinit { storage.deallocate() }

    /// Samples ready to read. Any thread (a snapshot).
    public var count: Int { head.load(ordering: .acquiring) - tail.load(ordering: .acquiring) }

    /// Samples the producer could not store because the ring was full.
    public var dropped: Int { droppedSamples.load(ordering: .relaxed) }

    /// Producer thread only. Returns how many samples were stored.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Int16>) -> Int {
        let written = head.load(ordering: .relaxed)
        let free = capacity - (written - tail.load(ordering: .acquiring))
        let n = min(free, samples.count)
        for i in 0..<n { storage[(written + i) & mask] = samples[i] }
        head.store(written + n, ordering: .releasing)
        if n < samples.count { droppedSamples.add(samples.count - n, ordering: .relaxed) }
        return n
    }

    /// Consumer thread only. Returns how many samples were copied into `destination`.
    public func read(into destination: UnsafeMutableBufferPointer<Int16>) -> Int {
        let read = tail.load(ordering: .relaxed)
        let available = head.load(ordering: .acquiring) - read
        let n = min(available, destination.count)
        for i in 0..<n { destination[i] = storage[(read + i) & mask] }
        tail.store(read + n, ordering: .releasing)
        return n
    }

    /// Consumer thread only: throws away everything queued (after a state load or a speed change).
    public func discardAll() {
        tail.store(head.load(ordering: .acquiring), ordering: .releasing)
    }
}
