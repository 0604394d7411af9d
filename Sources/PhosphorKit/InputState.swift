import Synchronization

/// What the players are pressing right now, shared between the input side (writer: the UI thread)
/// and the core thread (reader, from the core's input-state callback). Lock-free: one atomic word
/// word for the four ports' button masks (16 bits each), one for the pointer (the DS touch screen),
/// and one per port for its two analog sticks (RETRO_DEVICE_ANALOG).
public final class InputState: Sendable {
    public static let portCount = 4

    private let ports = Atomic<UInt64>(0)
    /// Pointer packed as x (16 bits) | y (16 bits) | pressed (1 bit), in libretro's
    /// -0x7fff...0x7fff screen coordinates.
    private let pointer = Atomic<UInt64>(0)
    /// Each port's sticks packed as left x | left y | right x | right y, 16 bits each.
    private let sticks0 = Atomic<UInt64>(0)
    private let sticks1 = Atomic<UInt64>(0)
    private let sticks2 = Atomic<UInt64>(0)
    private let sticks3 = Atomic<UInt64>(0)

    public init() {}

    /// Any thread.
    public func set(_ mask: ButtonMask, port: Int) {
        guard (0..<InputState.portCount).contains(port) else { return }
        let shift = UInt64(port * 16)
        var current = ports.load(ordering: .relaxed)
        while true {
            let updated = (current & ~(0xFFFF << shift)) | UInt64(mask.rawValue) << shift
            let (exchanged, original) = ports.compareExchange(
                expected: current, desired: updated, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Any thread; the core thread reads this once per poll.
    public func mask(port: Int) -> ButtonMask {
        guard (0..<InputState.portCount).contains(port) else { return [] }
        return ButtonMask(rawValue: UInt16(truncatingIfNeeded: ports.load(ordering: .acquiring) >> UInt64(port * 16)))
    }

    /// Any thread. Coordinates are libretro pointer units (-0x7fff...0x7fff).
    public func setPointer(x: Int16, y: Int16, pressed: Bool) {
        let packed = UInt64(UInt16(bitPattern: x)) | UInt64(UInt16(bitPattern: y)) << 16
            | (pressed ? 1 << 32 : 0)
        pointer.store(packed, ordering: .releasing)
    }

    public func pointerState() -> (x: Int16, y: Int16, pressed: Bool) {
        let packed = pointer.load(ordering: .acquiring)
        return (Int16(bitPattern: UInt16(truncatingIfNeeded: packed)),
                Int16(bitPattern: UInt16(truncatingIfNeeded: packed >> 16)),
                packed & (1 << 32) != 0)
    }

    /// Any thread: where `stick` of `port` points now.
    public func setStick(_ stick: AnalogStick, to position: StickPosition, port: Int) {
        guard (0..<InputState.portCount).contains(port) else { return }
        let shift = UInt64(stick.rawValue * 32)
        let packed = UInt64(UInt16(bitPattern: position.x)) | UInt64(UInt16(bitPattern: position.y)) << 16
        withSticks(port: port) { word in
            var current = word.load(ordering: .relaxed)
            while true {
                let updated = (current & ~(0xFFFF_FFFF << shift)) | packed << shift
                let (exchanged, original) = word.compareExchange(
                    expected: current, desired: updated, ordering: .acquiringAndReleasing)
                if exchanged { return }
                current = original
            }
        }
    }

    /// Any thread; the core thread reads this once per poll.
    public func stick(_ stick: AnalogStick, port: Int) -> StickPosition {
        guard (0..<InputState.portCount).contains(port) else { return .centre }
        let packed = withSticks(port: port) { $0.load(ordering: .acquiring) } >> UInt64(stick.rawValue * 32)
        return StickPosition(x: Int16(bitPattern: UInt16(truncatingIfNeeded: packed)),
                             y: Int16(bitPattern: UInt16(truncatingIfNeeded: packed >> 16)))
    }

    private func withSticks<T>(port: Int, _ body: (borrowing Atomic<UInt64>) -> T) -> T {
        switch port {
        case 0: body(sticks0)
        case 1: body(sticks1)
        case 2: body(sticks2)
        default: body(sticks3)
        }
    }
}
