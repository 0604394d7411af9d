import Input
import PhosphorKit
import XCTest
@testable import Terminal

/// The pixel-graphics detection's queries and edge cases. What real terminals answer (kitty,
/// xterm, mlterm, Konsole, foot, tmux, GNU screen, recorded here) is in `RecordedRepliesTests`.
final class GraphicsDetectionTests: XCTestCase {
    private func detect(_ replies: String, multiplexer: String? = nil, probeFile: String? = "/dev/shm/p-tty-graphics-protocol") -> GraphicsDetection {
        var detection = GraphicsDetection(multiplexer: multiplexer, probeFile: probeFile)
        _ = detection.start()
        var decoder = KeyDecoder()
        for event in decoder.decode(Array(replies.utf8), now: .now) { _ = detection.handle(event) }
        return detection
    }

    func testQueriesGoOutInOrderAndAskForTheFileByItsBase64Path() {
        var detection = GraphicsDetection(multiplexer: nil, probeFile: "/tmp/a-tty-graphics-protocol")
        let text = String(decoding: detection.start(), as: UTF8.self)
        XCTAssertEqual(text, "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
                       + "\u{1B}_Gi=32,s=1,v=1,a=q,t=t,f=24;L3RtcC9hLXR0eS1ncmFwaGljcy1wcm90b2NvbA==\u{1B}\\"
                       + "\u{1B}[?1;1S\u{1B}[?2;1S\u{1B}[16t")
        XCTAssertEqual(detection.state, .detecting)
    }

    /// kitty over SSH: the file is on another machine. kitty 0.26.5's answer for a file it
    /// cannot open, recorded by hand (the probe named a file that does not exist there).
    func testKittyRemoteCannotReadOurFiles() {
        let detection = detect("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;EBADF:Failed to open file for graphics transmission with error: [2] No such file or directory\u{1B}\\\u{1B}[6;20;8t\u{1B}[?0u\u{1B}[?62;c")
        XCTAssertTrue(detection.capabilities.kitty)
        XCTAssertFalse(detection.capabilities.kittyFiles)
    }

    /// Inside tmux the kitty queries go out wrapped in its passthrough (every ESC doubled), and
    /// the cell size is asked of tmux. Replies recorded from tmux 3.3a in a pty that answers like
    /// kitty: with `allow-passthrough on` tmux answers DA1 itself at once (`CSI ? 1;2 c`) and the
    /// outer terminal's kitty answer arrives after it; with it off, only tmux's DA1 arrives.
    func testTmuxWithPassthroughFindsKittyThroughItAfterItsOwnDA1() {
        var detection = GraphicsDetection(multiplexer: "tmux", probeFile: nil)
        let queries = detection.start()
        let wrappedQuery = "\u{1B}Ptmux;\u{1B}\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\u{1B}\\\u{1B}\\"
        XCTAssertEqual(String(decoding: queries, as: UTF8.self), "\u{1B}[16t")
        XCTAssertEqual(detection.takeFollowUp(), [], "not before tmux's DA1 reply")
        var decoder = KeyDecoder()
        for event in decoder.decode(Array("\u{1B}[?1;2c".utf8), now: .now) { _ = detection.handle(event) }
        XCTAssertTrue(detection.isFinished)
        XCTAssertEqual(String(decoding: detection.takeFollowUp(), as: UTF8.self), wrappedQuery, "after it, once")
        XCTAssertEqual(detection.takeFollowUp(), [])
        XCTAssertEqual(detection.capabilities.blockedReason, GraphicsDetection.tmuxWithoutPassthrough)
        for event in decoder.decode(Array("\u{1B}[6;20;10t\u{1B}_Gi=31;OK\u{1B}\\".utf8), now: .now) {
            XCTAssertTrue(detection.handle(event), "a graphics answer, consumed")
        }
        XCTAssertTrue(detection.capabilities.kitty)
        XCTAssertTrue(detection.capabilities.insideTmux)
        XCTAssertNil(detection.capabilities.blockedReason)
        XCTAssertFalse(detection.capabilities.sixel, "tmux's DA1 says nothing of the outer terminal")
    }

    func testTmuxWithoutPassthroughStaysOnHalfBlocksAndSaysWhy() {
        let detection = detect("\u{1B}[?1;2c", multiplexer: "tmux")
        XCTAssertTrue(detection.isFinished)
        XCTAssertFalse(detection.capabilities.kitty)
        XCTAssertFalse(detection.capabilities.sixel)
        XCTAssertEqual(detection.capabilities.blockedReason, GraphicsDetection.tmuxWithoutPassthrough)
    }

    /// GNU screen passes no graphics through: nothing is asked, half blocks, the reason said once.
    func testGNUScreenAsksNothing() {
        var detection = GraphicsDetection(multiplexer: "GNU screen", probeFile: nil)
        XCTAssertEqual(detection.start(), [])
        XCTAssertTrue(detection.isFinished)
        XCTAssertEqual(detection.capabilities.blockedReason, "inside GNU screen: half blocks (it passes no pixel graphics through)")
    }

    func testPassthroughWrapsEachEscapeStringWithTheCursorMoveBeforeIt() {
        let bytes = Array("\u{1B}[3;4H\u{1B}_Ga=T,m=1;AAAA\u{1B}\\\u{1B}_Gm=0;BBBB\u{1B}\\".utf8)
        let wrapped = String(decoding: TmuxPassthrough.wrapEach(bytes), as: UTF8.self)
        XCTAssertEqual(wrapped, "\u{1B}Ptmux;\u{1B}\u{1B}[3;4H\u{1B}\u{1B}_Ga=T,m=1;AAAA\u{1B}\u{1B}\\\u{1B}\\"
            + "\u{1B}Ptmux;\u{1B}\u{1B}_Gm=0;BBBB\u{1B}\u{1B}\\\u{1B}\\")
    }

    func testNoReplyAtAllMeansNoPixels() {
        var detection = detect("")
        XCTAssertFalse(detection.isFinished)
        detection.timedOut()
        XCTAssertTrue(detection.isFinished)
        XCTAssertEqual(detection.capabilities, GraphicsCapabilities())
    }

    /// A late kitty OK after DA1 still counts; a second DA1 (the keyboard's verification) does
    /// not change what the first said.
    func testOnlyTheFirstDA1Decides() {
        let detection = detect("\u{1B}[?62;4c\u{1B}[?62c")
        XCTAssertTrue(detection.capabilities.sixel)
    }

    /// DA1 after the wait gave up still says sixel; the keyboard's second DA1 changes nothing.
    func testALateDA1StillDecides() {
        var detection = detect("")
        detection.timedOut()
        var decoder = KeyDecoder()
        for event in decoder.decode(Array("\u{1B}[?62;4;22c\u{1B}[?62;22c".utf8), now: .now) { _ = detection.handle(event) }
        XCTAssertTrue(detection.capabilities.sixel)
    }

    /// The graphics queries go before the keyboard's DA1; nothing about pixels unless asked
    /// (the whole negotiation against real answers is in `RecordedRepliesTests`).
    func testGraphicsQueriesComeBeforeDA1AndOnlyWhenAsked() {
        var negotiation = TerminalNegotiation(graphics: GraphicsDetection(multiplexer: nil, probeFile: nil))
        let queries = String(decoding: negotiation.start(), as: UTF8.self)
        XCTAssertTrue(queries.hasSuffix("\u{1B}[16t\u{1B}[?u\u{1B}[c"), "graphics queries come before the keyboard's DA1")
        let console = TerminalNegotiation(asksBackground: false)
        var copy = console
        XCTAssertFalse(String(decoding: copy.start(), as: UTF8.self).contains("\u{1B}_G"), "nothing about pixels unless asked")
    }
}
