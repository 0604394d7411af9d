import Emulation
import Foundation
import PhosphorKit
import Synchronization

/// `phosphor run --headless`: runs a game without a terminal as fast as the core allows and prints
/// `frames=N fps=F speed=Sx hash=H samples=A` as its last line (see the README). Deterministic: the
/// same ROM, state and input give the same hash.
struct HeadlessRun {
    var rom: URL
    var frames: UInt64
    var input: InputScript?
    var stateOut: URL?
    var stateAt: UInt64?
    var stateIn: URL?
    var screenshot: URL?
    var audioWAV: URL?
    var explicitCore: URL?
    /// Codes from `--cheat`, all enabled, in order.
    var cheats: [String] = []
    /// RetroArch `.cht` files from `--cheat-file`: their cheats that are on, after `cheats`.
    var cheatFiles: [URL] = []
    var paths: PhosphorPaths

    struct Result {
        var frames: UInt64
        var seconds: Double
        var coreFPS: Double
        var hash: String
        var audioFrames: Int

        var summary: String {
            let fps = seconds > 0 ? Double(frames) / seconds : 0
            let speed = coreFPS > 0 ? fps / coreFPS : 0
            return "frames=\(frames) fps=\(String(format: "%.1f", fps)) speed=\(String(format: "%.2f", speed))x hash=\(hash) samples=\(audioFrames)"
        }
    }

    func run() throws -> Result {
        // A game in an archive runs from its extracted copy, named after the archive.
        let archive: ArchivedGame?
        let rom: URL
        let system: GameSystem?
        if ArchivedGame.isArchive(self.rom) {
            let opened = try ArchivedGame.open(self.rom, paths: paths)
            (rom, system, archive) = (opened.rom, opened.system, opened.game)
        } else {
            (rom, system, archive) = (self.rom, try RomCheck.inspect(self.rom), nil)
        }
        let stateBytes = try stateIn.map { try Self.readState($0) }
        let stateName = stateIn?.lastPathComponent ?? ""
        let stateSidecar = stateIn.flatMap(Self.readSidecar)
        let config = ConfigStore.load(from: paths.configFile)
        if let error = config.loadError { Log.error("\(error)") }
        let setup = try GameSetup(rom: rom, system: system, explicitCore: explicitCore, config: config.config,
                                  catalog: CoreCatalog.discover(), paths: paths, archive: archive)
        let coreCheats = try Self.coreCheats(cheats + Self.enabledCodes(in: cheatFiles), setup: setup)
        // Held until the run returns (its battery save is written on unload, before that).
        let lock = try GameLock.acquire(GameLock.file(states: paths.states, system: (setup.system ?? system)?.rawValue ?? setup.core.name,
                                                      gameKey: setup.gameKey), game: rom.lastPathComponent)
        defer { lock?.release() }
        let romSize = (try? FileManager.default.attributesOfItem(atPath: rom.path)[.size] as? Int) ?? nil
        // The identity a state of this run carries (the console is a placeholder for a core that
        // names none: StateCheck never compares it).
        let gameSystem = setup.system ?? system ?? .nes
        let identity = { @Sendable (coreVersion: String) in
            GameIdentity(key: setup.gameKey, system: gameSystem, romSize: romSize, coreName: setup.core.name,
                         coreVersion: coreVersion)
        }
        let failure = Mutex<Error?>(nil)
        let recorder = try audioWAV.map { try AudioRecording(file: $0) }
        let input = self.input
        let stateOut = self.stateOut
        let stateAt = min(self.stateAt ?? frames, frames)
        let inputState = InputState()
        let beforeFrame: @Sendable (any EmulatorCore, UInt64) -> Void = { host, frame in
            recorder?.setSourceRate(host.avInfo.sampleRate)
            if frame == 0, let stateBytes, let stateIn {
                do {
                    // Checked before the core sees it: some cores take another game's or a
                    // truncated state and crash a frame later.
                    let game = identity(host.coreVersion)
                    let paired = stateSidecar.flatMap { $0.describes(stateBytes) ? $0 : nil }
                    for note in try StateCheck.verify(stateBytes, paired: paired, game: game, expectedSize: host.stateSize,
                                                      file: stateIn) {
                        Log.warning(note)
                    }
                    try host.unserializeState(stateBytes)
                } catch let refused as StateStoreError {
                    let named = RomCheck.Failure(description: "\(stateName): save state refused: \(refused.problem)")
                    failure.withLock { $0 = $0 ?? named }
                } catch {
                    let named = RomCheck.Failure(description: "\(stateName): \(error)")
                    failure.withLock { $0 = $0 ?? named }
                }
            }
            if let input { inputState.set(input.buttons(at: frame), port: 0) }
            if let stateOut, frame == stateAt {
                do {
                    // The sidecar first, the state last (as the slot store does): a state with a
                    // sidecar that describes it is loaded by identity, whatever its size.
                    let state = try host.serializeState()
                    let metadata = StateMetadata(game: identity(host.coreVersion), slot: .quick, created: Date(), state: state)
                    try AtomicFile.write(try StateMetadata.encoder().encode(metadata), to: Self.sidecar(of: stateOut))
                    try AtomicFile.write(state, to: stateOut)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        var audioTap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)?
        if let recorder { audioTap = { recorder.append($0) } }
        let options = CoreThread.Options(frameLimit: frames, realTime: false, cheats: coreCheats, copyOnlyFinalFrames: true,
                                         beforeFrame: beforeFrame, audioTap: audioTap)
        let thread = setup.makeThread(paths: paths, options: options, input: inputState)
        let started = ContinuousClock.now
        try thread.start()
        thread.waitUntilFinished()
        let elapsed = ContinuousClock.now - started
        let status = thread.currentStatus
        if case .crashed(let message) = status.state { throw RomCheck.Failure(description: message) }
        if let error = failure.withLock({ $0 }) { throw error }
        guard let frame = thread.mailbox.takeLatest() else {
            throw RomCheck.Failure(description: "\(rom.lastPathComponent): the core produced no picture in \(frames) frames")
        }
        try recorder?.finish()
        if let screenshot {
            try AtomicFile.write(try PNGImage(frame).encoded(), to: screenshot)
        }
        return Result(frames: status.frameCount,
                      seconds: elapsed.inSeconds,
                      coreFPS: status.avInfo?.framesPerSecond ?? 60,
                      hash: String(format: "%016llx", frame.fnv1aHash()),
                      audioFrames: status.audioFrames)
    }

    /// The `--cheat` codes as the core takes them, all enabled. A code of the wrong format, or a
    /// core that ignores cheats, is an error: a scripted run must not silently run without them.
    static func coreCheats(_ codes: [String], setup: GameSetup) throws -> [CoreCheat] {
        guard !codes.isEmpty else { return [] }
        let support = setup.core.cheatSupport
        let system = setup.system
        if let reason = support.unsupportedReason { throw RomCheck.Failure(description: "--cheat: \(reason)") }
        guard let system else { throw RomCheck.Failure(description: "--cheat: cannot tell which console's codes to expect") }
        var list = CheatList(system: system)
        for code in codes {
            do {
                list.cheats.append(Cheat(name: "", code: try CheatCodeValidator.validate(code, for: system)))
            } catch {
                let shown = CheatCodeValidator.quoted(Substring(code))
                throw RomCheck.Failure(description: error.reason.contains(shown) ? "--cheat: \(error)" : "--cheat \(shown): \(error)")
            }
        }
        return list.coreCheats(support)
    }

    /// The codes switched on in RetroArch cheat files, as `--cheat` takes them (checked there).
    static func enabledCodes(in files: [URL]) throws -> [String] {
        try files.flatMap { file in
            do {
                return try RetroArchCheatFile.read(file).entries.filter(\.enabled).map(\.code)
            } catch {
                throw RomCheck.Failure(description: "--cheat-file: \(error)")
            }
        }
    }

    /// `<state>.json`: the identity `--state-out` writes next to a state (the slot store's sidecar format).
    static func sidecar(of state: URL) -> URL {
        state.deletingLastPathComponent().appendingPathComponent(state.lastPathComponent + ".json")
    }

    /// The sidecar next to `state`, nil when there is none or it is unreadable (the state is then
    /// checked by its size alone).
    static func readSidecar(_ state: URL) -> StateMetadata? {
        let file = sidecar(of: state)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil,
              size <= StateStore.maximumSidecarSize, let data = try? Data(contentsOf: file) else { return nil }
        return try? StateMetadata.decoder().decode(StateMetadata.self, from: data)
    }

    static func readState(_ url: URL) throws -> [UInt8] {
        do {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard !bytes.isEmpty else { throw RomCheck.Failure(description: "\(url.lastPathComponent): empty save state") }
            // RetroArch's own containers (RASTATE, RZIP) carry the core's bytes inside.
            do {
                return try RetroArchState.coreBytes(from: bytes)
            } catch {
                throw RomCheck.Failure(description: "\(url.lastPathComponent) \(error.description)")
            }
        } catch let failure as RomCheck.Failure {
            throw failure
        } catch {
            throw RomCheck.Failure(description: "\(url.lastPathComponent): cannot read save state (\(error.localizedDescription))")
        }
    }
}
