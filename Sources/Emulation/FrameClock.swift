import Foundation
import PhosphorKit
import Synchronization

/// The clock the core thread paces frames by: the monotonic clock and a real sleep, or in
/// tests `SteppingFrameClock`, whose time jumps to each deadline, so a test counts frames over
/// clock time without waiting for it.
public protocol FrameClock: Sendable {
    var now: ContinuousClock.Instant { get }
    /// Returns at `deadline` (at once when it has passed). Core thread.
    func sleep(until deadline: ContinuousClock.Instant)
}

/// The real one: `ContinuousClock` and `ThreadSleep`.
public struct SystemFrameClock: FrameClock {
    public init() {}

    public var now: ContinuousClock.Instant { ContinuousClock.now }

    public func sleep(until deadline: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        guard deadline > now else { return }
        do {
            try ThreadSleep.sleep(for: deadline - now)
        } catch {
            Thread.sleep(forTimeInterval: (deadline - now).inSeconds)
        }
    }
}

/// A fake clock for tests: it stands still while the core works and jumps to each deadline
/// the pacer sleeps until. Frames per clock second are then exactly what pacing asks for.
/// Any thread.
public final class SteppingFrameClock: FrameClock {
    private let time: Mutex<ContinuousClock.Instant>

    public init(start: ContinuousClock.Instant = .now) { time = Mutex(start) }

    public var now: ContinuousClock.Instant { time.withLock { $0 } }

    public func sleep(until deadline: ContinuousClock.Instant) {
        time.withLock { $0 = max($0, deadline) }
    }

    /// Moves the clock on (a test standing in for time passing elsewhere).
    public func advance(by duration: Duration) { time.withLock { $0 += duration } }
}
