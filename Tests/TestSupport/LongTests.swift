import Foundation

/// Long stress runs (kill trials, fuzzing, storms) run a representative slice in `make test` and
/// their full size in `make test-long`, which sets `PHOSPHOR_LONG_TESTS=1`. Tests ask here instead
/// of reading the environment themselves, so there is one switch and one spelling of it.
public enum LongTests {
    /// Whether the full sizes are wanted (`PHOSPHOR_LONG_TESTS=1`).
    public static let enabled: Bool = ProcessInfo.processInfo.environment["PHOSPHOR_LONG_TESTS"] == "1"

    /// `slice` by default, `full` under `PHOSPHOR_LONG_TESTS=1`: a count of trials or inputs, or
    /// a number of seconds.
    public static func size<Size>(slice: Size, full: Size) -> Size {
        enabled ? full : slice
    }
}
