internal import CSystem

/// Ctrl-C for commands that run without a terminal session (`phosphor add`): after `catch()`,
/// SIGINT and SIGTERM no longer end the process but set a flag a long job reads between steps,
/// so it can stop cleanly and keep what it did. (The browser and games read signals through
/// the terminal session's signal pipe instead.)
public enum InterruptRequest {
    /// Installs the handlers. Call once, from the main thread, before the long job.
    public static func `catch`() throws {
        try systemCall("sigaction(SIGINT, SIGTERM)") { csystem_catch_interrupts() }
    }

    /// True once Ctrl-C (or SIGTERM) arrived after `catch()`. Any thread.
    public static var isRequested: Bool { csystem_interrupt_requested() != 0 }
}
