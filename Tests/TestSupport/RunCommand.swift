import Foundation
import Glibc

// Shared by the end-to-end and reliability tests (test targets cannot share files).

/// Runs a short command with posix_spawn and waitpid (not Foundation's Process: its exit
/// monitoring can miss a client that forks a daemon, like `tmux new-session`). Returns its stdout.
@discardableResult
public func runCommand(_ argv: [String], captureOutput: Bool = true) throws -> String {
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else { throw NSError(domain: "runCommand", code: Int(errno)) }
    let spawned = spawnWithCleanSignals(argv) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    }
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    var pid = try spawned.get()
    var output: [UInt8] = []
    if captureOutput {
        // The output of every command used here is small; a daemon that inherited the pipe is
        // never waited for because it is closed in the child before exec... except when it isn't:
        // stop reading once the direct child has exited and no more bytes are ready.
        var buffer = [UInt8](repeating: 0, count: 65536)
        var status: Int32 = 0
        while true {
            var entry = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 100)
            if ready > 0 {
                let count = read(pipeEnds[0], &buffer, buffer.count)
                if count > 0 { output += buffer.prefix(count); continue }
                if count == 0 { break }
            }
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                // Take what is already there, then stop.
                while poll(&entry, 1, 0) > 0, case let count = read(pipeEnds[0], &buffer, buffer.count), count > 0 {
                    output += buffer.prefix(count)
                }
                break
            }
        }
    }
    if pid != 0 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    return String(decoding: output, as: UTF8.self)
}

/// Reads something (a screen capture) every `interval` until `predicate` holds or `timeout`
/// passes. Returns whether it held, and the last value read.
public func poll(timeout: TimeInterval, interval: TimeInterval = 0.1, read: () throws -> String,
                 until predicate: (String) -> Bool) rethrows -> (matched: Bool, last: String) {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
        last = try read()
        if predicate(last) { return (true, last) }
        Thread.sleep(forTimeInterval: interval)
    }
    return (false, last)
}

/// Starts a long-running program (a server) with stdin from /dev/null and stdout and stderr
/// appended to `logFile`, and returns at once. Stop it with `stopBackgroundProcess`.
public func startBackgroundProcess(_ argv: [String], logFile: String) throws -> pid_t {
    try spawnWithCleanSignals(argv) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }.get()
}

/// Whether a process started by `startBackgroundProcess` still runs (reaps it if it ended).
public func isBackgroundProcessRunning(_ pid: pid_t) -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == 0
}

/// SIGTERM, up to five seconds to end, then SIGKILL; always reaps the process.
public func stopBackgroundProcess(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(5)
    while waitpid(pid, &status, WNOHANG) == 0 {
        if Date() > deadline {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return
        }
        Thread.sleep(forTimeInterval: 0.05)
    }
}

/// posix_spawn with the file actions `configure` adds, and a clean signal state: the test
/// process may block or ignore signals (Foundation does), and a server started from here (tmux,
/// sshd) would hand that on to the program under test.
private func spawnWithCleanSignals(_ argv: [String],
                                   configure: (inout posix_spawn_file_actions_t) -> Void) -> Result<pid_t, Error> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    configure(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
    guard spawned == 0 else { return .failure(NSError(domain: "posix_spawn \(argv[0])", code: Int(spawned))) }
    return .success(pid)
}
