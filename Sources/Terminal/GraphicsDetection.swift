import Foundation
import Input
import PhosphorKit

/// Asks the terminal about pixel graphics and reads its answers, as a state machine:
///
/// ```
/// var detection = GraphicsDetection(multiplexer: …, probeFile: …)
/// write(detection.start() + DA1 query)        // the queries go before DA1
/// for event in decoded { detection.handle(event) }   // a DA1 reply ends it
/// if no DA1 in time: detection.timedOut()
/// ```
///
/// The queries: the kitty graphics 1x1 `a=q` image (answered before DA1 by terminals that know
/// the protocol; others ignore an APC string), the same through a temporary file (answered OK
/// only on the terminal's own machine), XTSMGRAPHICS for colour registers and sixel geometry,
/// and `CSI 16 t` for the cell size. DA1's attribute 4 says sixel.
///
/// Inside tmux only the kitty queries are asked, wrapped in tmux's passthrough: tmux 3.3a with
/// `allow-passthrough on` hands them to the outer terminal and its answer back to us (measured),
/// but answers DA1 itself, at once, so the kitty answer arrives after DA1 and counts then; with
/// passthrough off tmux drops the query and nothing answers. The wrapped query goes out only
/// once tmux's DA1 reply is in (`followUp`): sent in the same burst as ncurses' switch to the
/// alternate screen, tmux 3.3a drops it on the way to a real kitty 0.26.5 (measured under Xvfb:
/// no answer; one round trip later, `OK`), presumably while the pane waits to be redrawn. (Recorded replies of real
/// terminals, tmux and GNU screen included: `Tests/Fixtures/terminal-replies`.) Sixel is not asked there (its DA1
/// would be tmux's own). Inside GNU screen nothing is asked: it passes no graphics through.
/// UI thread only.
public struct GraphicsDetection: Sendable {
    public enum State: Sendable, Equatable {
        case notStarted
        /// Queries sent; waiting for DA1.
        case detecting
        case finished
    }

    /// The image ids of the two kitty queries (never used for frames).
    public static let queryImageID = 31
    public static let fileQueryImageID = 32

    public private(set) var state = State.notStarted
    public private(set) var capabilities = GraphicsCapabilities()
    /// Bytes to write once DA1 is answered (inside tmux: the wrapped kitty queries); the
    /// negotiation takes them with `takeFollowUp`.
    private var followUp: [UInt8] = []
    /// `timedOut()` gave up before DA1 came: the first DA1 that comes later still decides sixel
    /// (measured: kitty 0.26 under Xvfb answered after 2 s, four times the app's wait).
    private var lateDA1Counts = false
    private let multiplexer: String?
    private let probeFile: String?

    /// - Parameters:
    ///   - multiplexer: "tmux" or "GNU screen" when running inside one (`TerminalQuirks`).
    ///   - probeFile: a `tty-graphics-protocol` file holding 3 bytes of RGB for the file query
    ///     (nil: don't ask about files).
    public init(multiplexer: String?, probeFile: String?) {
        self.multiplexer = multiplexer
        self.probeFile = probeFile
    }

    /// XTSMGRAPHICS: read the number of colour registers / the maximum sixel geometry.
    public static let colorRegistersQuery = Array("\u{1B}[?1;1S".utf8)
    public static let geometryQuery = Array("\u{1B}[?2;1S".utf8)
    /// Report the cell size in pixels.
    public static let cellSizeQuery = Array("\u{1B}[16t".utf8)

    /// The queries to write, before the DA1 query that ends them.
    public mutating func start() -> [UInt8] {
        if multiplexer == "tmux" {
            capabilities.insideTmux = true
            capabilities.blockedReason = Self.tmuxWithoutPassthrough
            state = .detecting
            // The cell size is tmux's to answer; 3.3a does not (measured), and then the tty's
            // pixels, which tmux fills in from the outer terminal, stand in.
            followUp = TmuxPassthrough.wrap(kittyQueries())
            return Self.cellSizeQuery
        }
        if let multiplexer {
            capabilities.blockedReason = "inside \(multiplexer): half blocks (it passes no pixel graphics through)"
            state = .finished
            return []
        }
        state = .detecting
        return kittyQueries() + Self.colorRegistersQuery + Self.geometryQuery + Self.cellSizeQuery
    }

    /// Said once when tmux did not pass the kitty query through.
    public static let tmuxWithoutPassthrough =
        "inside tmux: half blocks (pixels need tmux ≥ 3.3 with `set -g allow-passthrough on` and a kitty graphics terminal outside)"

    private func kittyQueries() -> [UInt8] {
        // `a=q`: the terminal checks the image and answers, but never stores or shows it.
        var bytes = Array("\u{1B}_Gi=\(Self.queryImageID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)
        if let probeFile {
            let path = Data(probeFile.utf8).base64EncodedString()
            bytes += Array("\u{1B}_Gi=\(Self.fileQueryImageID),s=1,v=1,a=q,t=t,f=24;\(path)\u{1B}\\".utf8)
        }
        return bytes
    }

    /// Takes one decoded event. True when it was an answer to a graphics query (the caller
    /// drops it). DA1 is looked at but not consumed: the keyboard negotiation needs it too.
    public mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .graphicsReply(let imageID, let message):
            guard imageID == Self.queryImageID || imageID == Self.fileQueryImageID else { return true }
            let ok = message == "OK"
            if imageID == Self.queryImageID { capabilities.kitty = capabilities.kitty || ok }
            if ok, capabilities.insideTmux { capabilities.blockedReason = nil }  // passthrough works
            if imageID == Self.fileQueryImageID { capabilities.kittyFiles = ok }
            return true
        case .graphicsAttribute(let item, let status, let values):
            guard status == 0 else {
                if item == 1 { capabilities.colorRegistersRefused = true }
                return true
            }
            if item == 1, let registers = values.first, registers > 0 { capabilities.colorRegisters = registers }
            if item == 2, values.count >= 2, values[0] > 0, values[1] > 0 { capabilities.sixelMaximum = (values[0], values[1]) }
            return true
        case .cellPixelSize(let width, let height):
            capabilities.cellSize = CellPixelSize(width: width, height: height)
            return true
        case .deviceAttributes(let attributes):
            if state == .detecting || lateDA1Counts {
                // The first number is the terminal's class (62, 63, 64…), the rest its features.
                // Inside tmux the answer is tmux's own: not the outer terminal's sixel.
                capabilities.sixel = !capabilities.insideTmux && attributes.dropFirst().contains(4)
                state = .finished
                lateDA1Counts = false
            }
            return false
        default:
            return false
        }
    }

    /// No DA1 reply in time: whatever came so far stands (a terminal that did not answer DA1
    /// did not say it has sixel), until a late DA1 says otherwise.
    public mutating func timedOut() {
        guard state == .detecting else { return }
        state = .finished
        lateDA1Counts = true
    }

    /// The tty's window size in pixels stands in for `CSI 16 t` when the terminal did not answer
    /// it (xterm fills them in, not every terminal does).
    public mutating func useWindowPixels(width: Int, height: Int, columns: Int, rows: Int) {
        guard capabilities.cellSize == nil, width > 0, height > 0, columns > 0, rows > 0 else { return }
        capabilities.cellSize = CellPixelSize(width: width / columns, height: height / rows)
    }

    public var isFinished: Bool { state == .finished }

    /// What must be written now that DA1 was answered (once; empty otherwise).
    public mutating func takeFollowUp() -> [UInt8] {
        guard state == .finished, !followUp.isEmpty else { return [] }
        defer { followUp = [] }
        return followUp
    }
}
