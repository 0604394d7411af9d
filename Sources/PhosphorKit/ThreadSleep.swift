internal import CSystem

/// Puts the calling thread to sleep with one `clock_nanosleep` to a monotonic deadline. The core
/// thread paces every frame with it: Foundation's `Thread.sleep(forTimeInterval:)` reads the
/// clock several times around its sleep, which was over half a percent of a play run's CPU
/// (perf). Any thread.
public enum ThreadSleep {
    public static func sleep(for duration: Duration) throws {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        try systemCall("clock_nanosleep") { csystem_sleep_nanoseconds(nanoseconds) }
    }
}
