import Foundation
import Glibc
import TestSupport
import XCTest

/// An OpenSSH server of the test's own on 127.0.0.1: its own host key, client key, config and
/// port, in a temporary folder, so a test can play over a real SSH hop (a pty made by sshd, the
/// bytes through the encrypted connection) and drop the connection when it likes.
///
/// sshd needs root (it changes user for the session and checks its privilege-separation folder);
/// CI runs as root, elsewhere the tests skip.
final class LoopbackSSHServer {
    let folder: URL
    private(set) var port = 0
    private var pid: pid_t = 0

    var clientKey: URL { folder.appendingPathComponent("client_key") }
    var log: URL { folder.appendingPathComponent("sshd.log") }

    init() throws {
        guard getuid() == 0 else { throw XCTSkip("sshd runs only as root (CI runs as root)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else {
            throw Failure("/usr/sbin/sshd is missing: `make deps` installs openssh-server")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("phosphor-sshd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // sshd refuses to start without its privilege-separation folder (systemd makes it at boot).
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        try Self.makeKey(folder.appendingPathComponent("host_key"))
        try Self.makeKey(clientKey)
        try FileManager.default.copyItem(at: clientKey.appendingPathExtension("pub"),
                                         to: folder.appendingPathComponent("authorized_keys"))
        // A port that was free a moment ago can be taken before sshd binds it: then try another.
        for _ in 0..<3 where pid == 0 { try start(port: try Self.freePort()) }
        guard pid != 0 else { throw Failure("sshd did not start; its log:\n\(logText)") }
        try checkLogin()
    }

    deinit { stop() }

    /// Stops the listening sshd (sessions it started end when their client goes).
    func stop() {
        if pid != 0 { stopBackgroundProcess(pid) }
        pid = 0
        try? FileManager.default.removeItem(at: folder)
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The shell command line that runs `remoteCommand` (a shell command line on the server side)
    /// with a pseudo-terminal through ssh: the remote side gets no environment from this one.
    func sshCommandLine(running remoteCommand: String) -> String {
        sshArguments(["-tt", "-e", "none"], running: remoteCommand).map(TmuxSession.quote).joined(separator: " ")
    }

    /// ssh to this server as root with the client key, ignoring the user's ssh config and known hosts.
    private func sshArguments(_ options: [String], running remoteCommand: String) -> [String] {
        ["/usr/bin/ssh"] + options + ["-F", "/dev/null", "-p", "\(port)", "-i", clientKey.path,
                                      "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                                      "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                                      "root@127.0.0.1", remoteCommand]
    }

    /// One login without a terminal, so a refused key (a locked root account, say) fails here with
    /// sshd's reason rather than as a screen that never shows the game.
    private func checkLogin() throws {
        let answer = try runCommand(sshArguments([], running: "echo logged-in"))
        guard answer.contains("logged-in") else { throw Failure("ssh to 127.0.0.1:\(port) failed; sshd log:\n\(logText)") }
    }

    private func start(port: Int) throws {
        let config = folder.appendingPathComponent("sshd_config")
        try """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(folder.appendingPathComponent("host_key").path)
        AuthorizedKeysFile \(folder.appendingPathComponent("authorized_keys").path)
        PidFile \(folder.appendingPathComponent("sshd.pid").path)
        PermitRootLogin prohibit-password
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        StrictModes no
        PrintMotd no
        PrintLastLog no

        """.write(to: config, atomically: true, encoding: .utf8)
        let started = try startBackgroundProcess(["/usr/sbin/sshd", "-D", "-e", "-f", config.path], logFile: log.path)
        let listening = "Server listening on 127.0.0.1 port \(port)."
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if logText.contains(listening) {
                pid = started
                self.port = port
                return
            }
            if !isBackgroundProcessRunning(started) { return }  // the port was taken: the caller tries another
            Thread.sleep(forTimeInterval: 0.05)
        }
        stopBackgroundProcess(started)
    }

    private static func makeKey(_ file: URL) throws {
        _ = try runCommand(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "phosphor-test", "-f", file.path])
        guard FileManager.default.fileExists(atPath: file.path) else { throw Failure("ssh-keygen made no key at \(file.path)") }
    }

    /// A port on 127.0.0.1 that nothing listens on: the kernel picks one for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure("socket: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        guard bound else { throw Failure("bind 127.0.0.1:0: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
