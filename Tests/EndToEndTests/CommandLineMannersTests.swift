import Foundation
import TestSupport
import XCTest

/// The command line's manners (issue 16): `--version`, standard output holding only the result
/// line of a headless run (what cores print goes to the log), and `make install` with the man
/// page and shell completion.
final class CommandLineMannersTests: XCTestCase {
    var phosphor: PhosphorProcess!

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() { phosphor.cleanUp() }

    func testVersionIsOneLineMatchingTheManPage() throws {
        let outcome = try phosphor.run(["--version"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.standardError, "")
        let line = outcome.standardOutput
        XCTAssertNotNil(line.range(of: #"^phosphor [0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression), line)
        let manPage = try String(contentsOf: PhosphorProcess.packageRoot.appendingPathComponent("man/phosphor.1"), encoding: .utf8)
        XCTAssertTrue(manPage.contains("\"\(line.trimmingCharacters(in: .newlines))\""), "the man page names the same version")
    }

    /// gambatte prints "cgb: 1", "rambanks: 1" and more with printf while loading.
    func testHeadlessStandardOutputHoldsOnlyTheResultLineAndTheCoresChatterIsLogged() throws {
        let outcome = try phosphor.run(["run", "--headless", "--frames", "10", PhosphorProcess.rom("gb/phosphor-test.gbc").path])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "one line and its newline: \(outcome.standardOutput)")
        XCTAssertTrue(lines[0].hasPrefix("frames=10 "), outcome.standardOutput)
        let log = try String(contentsOf: phosphor.home.appendingPathComponent("data/phosphor.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("rambanks: 1"), "the core's printf went to the log")
    }

    private func shell(_ script: String) throws -> (status: Int32, output: String) {
        try ToolRun.run(["bash", "-c", script], in: PhosphorProcess.packageRoot)
    }

    func testMakeInstallPutsTheBinaryManPageCompletionsAndDemosUnderThePrefix() throws {
        let prefix = phosphor.home.appendingPathComponent("prefix")
        let install = try shell("make --no-print-directory install PREFIX='\(prefix.path)' INSTALL_BIN='\(PhosphorProcess.binary.path)'")
        XCTAssertEqual(install.status, 0, install.output)
        let version = try shell("'\(prefix.path)/bin/phosphor' --version")
        XCTAssertTrue(version.output.hasPrefix("phosphor "), version.output)

        let manual = try shell("MANWIDTH=80 man -l '\(prefix.path)/share/man/man1/phosphor.1' | col -b; groff -man -Tutf8 -z -ww '\(prefix.path)/share/man/man1/phosphor.1'")
        XCTAssertEqual(manual.status, 0, manual.output)
        for section in ["SYNOPSIS", "phosphor run --headless --frames N", "NO_COLOR", "EXIT STATUS"] {
            XCTAssertTrue(manual.output.contains(section), "man page shows \(section):\n\(manual.output)")
        }
        XCTAssertFalse(manual.output.contains("warning"), manual.output)

        // bash completes the commands and a command's options from the installed file.
        let completion = "\(prefix.path)/share/bash-completion/completions/phosphor"
        let commands = try shell("source '\(completion)'; COMP_WORDS=(phosphor r); COMP_CWORD=1; _phosphor; echo \"${COMPREPLY[*]}\"")
        XCTAssertEqual(commands.output, "run\n")
        let options = try shell("source '\(completion)'; COMP_WORDS=(phosphor run --he); COMP_CWORD=2; _phosphor; echo \"${COMPREPLY[*]}\"")
        XCTAssertEqual(options.output, "--headless\n")
        let depth = try shell("source '\(completion)'; COMP_WORDS=(phosphor play --color 2); COMP_CWORD=3; _phosphor; echo \"${COMPREPLY[*]}\"")
        XCTAssertEqual(depth.output, "24bit 256\n")
        // zsh: the file parses, and compinit registers it for phosphor from the installed folder.
        let functions = prefix.appendingPathComponent("share/zsh/site-functions")
        let zsh = try shell("zsh -n '\(functions.path)/_phosphor' && zsh -fc 'fpath=(\(functions.path) $fpath); autoload -Uz compinit; "
                            + "compinit -u -d \(prefix.path)/zcompdump; print -r -- $_comps[phosphor]'")
        XCTAssertEqual(zsh.output, "_phosphor\n", zsh.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/phosphor/roms/nes/phosphor-test.nes").path),
                      "the demo cartridges go where the browser looks for them")
    }
}
