import Synchronization

/// A lock-free triple buffer for video frames: the core thread publishes, the UI thread takes the
/// latest. The core never waits for the UI; frames the UI did not get to are overwritten.
///
/// Three slots: the producer owns one (`back`), the consumer owns one (`front`), and the third sits
/// in the shared `middle` word together with a "fresh" bit. Publishing swaps back and middle;
/// taking swaps middle and front when fresh.
public final class FrameMailbox: @unchecked Sendable {
    private static let freshBit = 4

    /// Three frames; a slot is touched only by the thread that owns its index.
    private let slots: UnsafeMutablePointer<VideoFrame>
    private var back = 0  // core thread only
    private var front = 1  // UI thread only
    private let middle = Atomic<Int>(2)
    private let published = Atomic<UInt64>(0)

    public init() {
        let empty = VideoFrame(width: 0, height: 0, format: .xrgb8888, pixels: [], sequence: 0)
        slots = .allocate(capacity: 3)
        slots.initialize(repeating: empty, count: 3)
    }

    deinit {
        slots.deinitialize(count: 3)
        slots.deallocate()
    }

    /// Core thread only. Copies `height` rows of `width` pixels (rows `pitch` bytes apart).
    public func publish(
        pixels: UnsafeRawPointer, width: Int, height: Int, pitch: Int,
        format: PixelFormat, sequence: UInt64
    ) {
        let rowBytes = width * format.bytesPerPixel
        let byteCount = rowBytes * height
        let slot = slots + back
        if slot.pointee.pixels.count != byteCount {
            slot.pointee.pixels = [UInt8](repeating: 0, count: byteCount)
        }
        slot.pointee.width = width
        slot.pointee.height = height
        slot.pointee.format = format
        slot.pointee.sequence = sequence
        slot.pointee.publishedAt = .now
        // If the UI still holds this slot's previous pixels, copy-on-write gives us a fresh buffer.
        slot.pointee.pixels.withUnsafeMutableBytes { destination in
            for row in 0..<height {
                (destination.baseAddress! + row * rowBytes)
                    .copyMemory(from: pixels + row * pitch, byteCount: rowBytes)
            }
        }
        let previous = middle.exchange(back | FrameMailbox.freshBit, ordering: .acquiringAndReleasing)
        back = previous & 3
        published.add(1, ordering: .relaxed)
    }

    /// UI thread only. The newest frame not yet taken, or nil when nothing new arrived.
    public func takeLatest() -> VideoFrame? {
        guard middle.load(ordering: .acquiring) & FrameMailbox.freshBit != 0 else { return nil }
        let previous = middle.exchange(front, ordering: .acquiringAndReleasing)
        front = previous & 3
        return slots[front]
    }

    /// How many frames were ever published (any thread).
    public var publishedCount: UInt64 { published.load(ordering: .relaxed) }
}
