import Foundation
import XCTest

/// A full or read-only disk: the save fails visibly, the game goes on, the old file stays.
///
/// Running as root, permission bits don't stop writes, so the saves folder becomes a tiny tmpfs
/// (filled up, or remounted read-only) inside a private mount namespace (`unshare -m`, or
/// `unshare -rm` in a user namespace): nothing outside the test sees it, nothing needs cleaning up.
/// Where neither is allowed (a container without CAP_SYS_ADMIN or user namespaces) the tests skip.
final class DiskFullTests: XCTestCase {
    var home: ScratchFolder!
    var pane: TmuxPane?
    let gbc = Binaries.rom("gb/phosphor-test.gbc")

    override func setUpWithError() throws { home = try ScratchFolder("disk") }
    override func tearDown() {
        pane?.stop()
        home.remove()
    }

    /// The `unshare` prefix that can mount a tmpfs here, or nil.
    static let unsharePrefix: [String]? = {
        for prefix in [["/usr/bin/unshare", "-m"], ["/usr/bin/unshare", "-rm"]] {
            let probe = try? ChildProcess(URL(fileURLWithPath: prefix[0]), Array(prefix.dropFirst()) + [
                "/bin/sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && echo mounted; umount \"$d\" 2>/dev/null; rmdir \"$d\""])
            if let result = probe?.finish(), result.output.contains("mounted") { return prefix }
        }
        return nil
    }()

    private func requireMounts() throws -> [String] {
        guard let prefix = Self.unsharePrefix else {
            throw XCTSkip("cannot mount a tmpfs in a private mount namespace here (no CAP_SYS_ADMIN, no user namespaces)")
        }
        return prefix
    }

    /// Shell lines that put a `size` tmpfs over `folder`, holding a copy of what `folder` had,
    /// then either fill it (`full`) or remount it read-only.
    private func mountScript(_ folder: URL, full: Bool) -> String {
        let f = TmuxPane.quote(folder.path)
        let keep = TmuxPane.quote(home.file("keep").path)
        return """
            set -e; mkdir -p \(keep) \(f); cp -a \(f)/. \(keep)/; mount -t tmpfs -o size=1m tmpfs \(f); cp -a \(keep)/. \(f)/;
            \(full ? "dd if=/dev/zero of=\(f)/filler bs=4k 2>/dev/null || true; sync" : "mount -o remount,ro \(f)"); set +e;
            """
    }

    private func headless(_ extra: [String] = []) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "300"] + extra + [gbc.path],
                         environment: ["PHOSPHOR_HOME": home.url.path]).finish()
    }

    func testBatterySaveOnAFullOrReadOnlyDiskFailsVisiblyAndKeepsTheOldFile() throws {
        let prefix = try requireMounts()
        let saves = home.file("data/saves/gbc")
        let srm = saves.appendingPathComponent("phosphor-test.srm")
        for (label, full, reason) in [("full disk", true, "No space left on device"), ("read-only disk", false, "Read-only file system")] {
            try? FileManager.default.removeItem(at: home.file("keep"))
            try? FileManager.default.removeItem(at: saves)
            XCTAssertEqual(try headless().status, 0)
            let old = try Data(contentsOf: srm)  // boot counter 1
            // Inside the namespace: mount, run (the counter becomes 2, so the .srm must be rewritten),
            // then report what the folder holds.
            let after = home.file("after.srm")
            let script = mountScript(saves, full: full) + """
                PHOSPHOR_HOME=\(TmuxPane.quote(home.url.path)) \(TmuxPane.quote(Binaries.phosphor.path)) run --headless --frames 300 \(TmuxPane.quote(gbc.path)) 2>&1;
                echo "STATUS=$?"; cp \(TmuxPane.quote(srm.path)) \(TmuxPane.quote(after.path)); echo "FILES:"; ls -a \(TmuxPane.quote(saves.path))
                """
            let result = try ChildProcess(URL(fileURLWithPath: prefix[0]), Array(prefix.dropFirst()) + ["/bin/sh", "-c", script]).finish()
            XCTAssertTrue(result.output.contains("STATUS=0"), "\(label): the game ran to the end: \(result.output) \(result.error)")
            XCTAssertTrue(result.output.contains("frames=300"), "\(label): \(result.output)")
            let complaint = result.output.split(separator: "\n").first { $0.contains("battery save: phosphor-test.srm not saved") }
            XCTAssertNotNil(complaint, "\(label): the failure is reported: \(result.output)")
            XCTAssertTrue(complaint?.contains("phosphor-test.srm") == true && complaint?.contains(reason) == true,
                          "\(label): names the file and the reason: \(complaint ?? "")")
            XCTAssertEqual(try Data(contentsOf: after), old, "\(label): the old battery save is intact")
            let files = result.output.components(separatedBy: "FILES:").last ?? ""
            XCTAssertFalse(files.contains(".tmp-"), "\(label): no temporary left behind: \(files)")
            // Outside the namespace the real folder never changed.
            XCTAssertEqual(try Data(contentsOf: srm), old, label)
        }
    }

    /// The whole data folder (library, log, saves) on a read-only or full disk: the browser still
    /// starts (it used to stop at `open(…/phosphor.log)` or `PRAGMA journal_mode=WAL`), shows the
    /// games the library holds, and says once that nothing is kept.
    func testBrowserStartsOnAReadOnlyOrFullDataFolder() throws {
        let prefix = try requireMounts()
        let environment = ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        let added = try ChildProcess(Binaries.phosphor, ["add", gbc.deletingLastPathComponent().path],
                                     environment: ["PHOSPHOR_HOME": home.url.path]).finish()
        XCTAssertEqual(added.status, 0, added.error)
        for full in [false, true] {
            let label = full ? "full disk" : "read-only disk"
            try? FileManager.default.removeItem(at: home.file("keep"))
            let script = mountScript(home.file("data"), full: full) + TmuxPane.commandLine([], environment: environment)
                + "; echo EXIT=$?; sleep 600"
            let pane = try TmuxPane(command: (prefix + ["/bin/sh", "-c", script]).map(TmuxPane.quote).joined(separator: " "))
            self.pane = pane
            let screen = try pane.waitFor("the browser (\(label))", timeout: 15) { $0.contains("Game Boy Color") || $0.contains("EXIT=") }
            XCTAssertFalse(screen.contains("EXIT="), "\(label): the browser started:\n\(screen)")
            if !full {
                XCTAssertTrue(screen.contains("library.sqlite is read-only"), "\(label): one notice:\n\(screen)")
            }
            try pane.send("C-q")
            let end = try pane.waitFor(text: "EXIT=", timeout: 10)
            XCTAssertTrue(end.contains("EXIT=0"), "\(label): \(end)")
            pane.stop()
        }
    }

    /// `phosphor play` with its states folder on a full disk: F5 (quick save) shows the error on
    /// the screen, the game keeps running, and the old quick save is untouched.
    func testQuickSaveOnAFullDiskShowsTheErrorAndTheGameGoesOn() throws {
        let prefix = try requireMounts()
        let environment = ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        let states = home.file("data/states/gbc")
        // A first run writes a good quick save.
        let first = try TmuxPane(command: TmuxPane.commandLine(["play", "--no-audio", gbc.path], environment: environment)
                                 + "; echo EXIT=$?; sleep 600")
        pane = first
        try first.waitFor(text: "fps")
        try first.send("F5")
        try first.waitFor(text: "saved")
        try first.send("C-c")
        try first.waitFor(text: "EXIT=0")
        first.stop()
        let quick = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: states.path).first { $0.hasSuffix(".state") })
        let old = try Data(contentsOf: states.appendingPathComponent(quick))

        let copy = home.file("after.state")
        let script = mountScript(states, full: true) + TmuxPane.commandLine(["play", "--no-audio", gbc.path], environment: environment)
            + "; echo EXIT=$?; cp \(TmuxPane.quote(states.appendingPathComponent(quick).path)) \(TmuxPane.quote(copy.path)); ls -a \(TmuxPane.quote(states.path)) | grep -c tmp- ; sleep 600"
        let second = try TmuxPane(command: (prefix + ["/bin/sh", "-c", script]).map(TmuxPane.quote).joined(separator: " "))
        pane = second
        try second.waitFor(text: "fps")
        try second.send("F5")
        let screen = try second.waitFor("the error on screen") { $0.contains("No space left") }
        XCTAssertTrue(screen.contains("fps"), "the game is still on screen:\n\(screen)")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(try second.capture().contains("fps"), "still running a second later")
        try second.send("C-c")
        // The count of temporary files comes on the line after EXIT=0, a moment later (cp first).
        let end = try second.waitFor("the exit and the count of temporary files") {
            $0.range(of: #"EXIT=0\n[0-9]+"#, options: .regularExpression) != nil
        }
        XCTAssertEqual(try Data(contentsOf: copy), old, "the old quick save is intact")
        XCTAssertTrue(end.contains("EXIT=0\n0"), "no temporary files left in the states folder:\n\(end)")
    }

    /// `phosphor play` with the battery save on a full disk: the periodic SRAM write (~3 s in)
    /// fails, the status line says so, the game goes on, and the old .srm is untouched.
    func testBatterySaveFailureShowsWhilePlaying() throws {
        let prefix = try requireMounts()
        let environment = ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        let saves = home.file("data/saves/gbc")
        let srm = saves.appendingPathComponent("phosphor-test.srm")
        XCTAssertEqual(try headless().status, 0)
        let old = try Data(contentsOf: srm)
        let copy = home.file("after.srm")
        let script = mountScript(saves, full: true) + TmuxPane.commandLine(["play", "--no-audio", gbc.path], environment: environment)
            + "; echo EXIT=$?; cp \(TmuxPane.quote(srm.path)) \(TmuxPane.quote(copy.path)); sleep 600"
        let pane = try TmuxPane(command: (prefix + ["/bin/sh", "-c", script]).map(TmuxPane.quote).joined(separator: " "))
        self.pane = pane
        try pane.waitFor(text: "fps")
        let screen = try pane.waitFor("the battery save failure on screen", timeout: 15) { $0.contains("battery save: phosphor-test.srm not saved") }
        XCTAssertTrue(screen.contains("No spac"), "says why: \(screen)")
        XCTAssertTrue(screen.contains("▀"), "the game picture is still there:\n\(screen)")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try pane.capture().contains("EXIT="), "the game goes on")
        try pane.send("C-c")
        try pane.waitFor(text: "EXIT=0")
        XCTAssertEqual(try Data(contentsOf: copy), old, "the old battery save is intact")
    }
}
