internal import CSystem

/// CPU time used by the calling thread so far (user and system). Any thread may call it; each
/// gets its own figure. The play screen logs its UI thread's and its core thread's on exit, so a
/// benchmark can say where a frame's CPU went.
public enum ThreadCPUTime {
    public static func current() throws -> Duration {
        .nanoseconds(try systemCall("clock_gettime(CLOCK_THREAD_CPUTIME_ID)") { csystem_thread_cpu_nanoseconds() })
    }
}
