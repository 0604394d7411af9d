import Foundation
import PhosphorKit

/// The save states of one game, Delta-style: a quick slot, slots 1–9 and an automatic slot, each a
/// RetroArch-named state file (`StateSlot`) with a PNG preview (`<game>.state3.png`) and a JSON
/// sidecar (`<game>.state3.json`, `StateMetadata`).
///
/// Safety rules:
/// - Every file is written with `AtomicFile.write`. A slot is one unit through its state file: a
///   save writes the preview, then the sidecar (naming the state's size and checksum and the
///   preview's checksum), then the state bytes last, and the state's rename is the moment the new
///   save exists. A save killed before that leaves the OLD state beside a NEW sidecar and preview;
///   a load trusts a sidecar only when it describes the state, else the backup sidecar
///   (`.undo.json`, the old state's own, written before the new files), else the state alone when
///   its size is the core's state size: the user's good old state is never refused for a save that
///   did not happen. The state file stays the raw core bytes, so RetroArch still reads it.
/// - Before a save overwrites a slot, its old contents are copied to `<file>.undo` (sidecar and
///   preview too): `undoLastSave(_:)` puts them back. Saving into an empty slot leaves a
///   `<game>.stateN.undo-empty` marker so the undo empties it again.
/// - Before a load, the caller's current state goes to `<game>.state.before-load`:
///   `undoLastLoad(currentState:)` returns it (and keeps the state it replaces, so undo is undoable).
/// - A locked slot (`<game>.stateN.locked` marker) refuses saves, deletion and undo.
///
/// Runs file I/O on the calling thread: call it from the UI/control thread, never the core thread.
public struct StateStore: Sendable {
    /// States larger than this are refused as damaged (the largest real cores use ~20 MiB).
    public static let maximumStateSize = 256 << 20
    static let maximumSidecarSize = 64 * 1024

    public let folder: URL
    public let game: GameIdentity
    /// Write state files in RetroArch's container (`RASTATE`) instead of the core's bare bytes
    /// (RetroArch's folders are shared). Loading takes either; sidecars describe the core's bytes.
    public var writesRetroArchContainer = false

    /// `folder` is normally `PhosphorPaths.states`.
    public init(folder: URL, game: GameIdentity) {
        self.folder = folder
        self.game = game
    }

    // MARK: File names

    public func stateFile(_ slot: StateSlot) -> URL {
        folder.appendingPathComponent("\(game.key).\(slot.fileExtension)")
    }

    public func metadataFile(_ slot: StateSlot) -> URL { sibling(of: stateFile(slot), suffix: ".json") }
    public func screenshotFile(_ slot: StateSlot) -> URL { sibling(of: stateFile(slot), suffix: ".png") }
    func lockFile(_ slot: StateSlot) -> URL { sibling(of: stateFile(slot), suffix: ".locked") }
    func undoStateFile(_ slot: StateSlot) -> URL { sibling(of: stateFile(slot), suffix: ".undo") }
    func undoMetadataFile(_ slot: StateSlot) -> URL { sibling(of: stateFile(slot), suffix: ".undo.json") }
    func undoScreenshotFile(_ slot: StateSlot) -> URL { sibling(of: stateFile(slot), suffix: ".undo.png") }
    func undoEmptyMarker(_ slot: StateSlot) -> URL { sibling(of: stateFile(slot), suffix: ".undo-empty") }
    /// The state the game was in before the last load.
    public var beforeLoadFile: URL { folder.appendingPathComponent("\(game.key).state.before-load") }

    private func sibling(of file: URL, suffix: String) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + suffix)
    }

    private func exists(_ file: URL) -> Bool { FileManager.default.fileExists(atPath: file.path) }

    // MARK: Saving

    /// Saves `state` (the bytes of `retro_serialize`) into `slot` with `screenshot` as its preview.
    /// Backs up the slot's previous contents first (see `undoLastSave`). Throws when the slot is
    /// locked or invalid, or a write fails (the slot then holds either the old or the new state,
    /// and a half-finished save is detected on load).
    @discardableResult
    public func save(_ state: [UInt8], to slot: StateSlot, screenshot: VideoFrame?,
                     date: Date = Date(), batterySaveChecksum: String? = nil) throws -> StateMetadata {
        try checkValid(slot)
        try checkUnlocked(slot, action: "overwrite")
        guard !state.isEmpty else {
            throw StateStoreError(.damaged, file: stateFile(slot), "the core produced an empty state; nothing saved")
        }
        // Encode everything before touching any file, so an encoding failure changes nothing.
        let preview = try screenshot.map { try PNGImage($0).encoded() }
        let metadata = StateMetadata(game: game, slot: slot, created: date, state: state, preview: preview.map { [UInt8]($0) },
                                     batterySaveChecksum: batterySaveChecksum)
        let sidecar = try StateMetadata.encoder().encode(metadata)

        try backUpBeforeSave(slot)
        if let preview {
            try AtomicFile.write(preview, to: screenshotFile(slot))
        } else {
            try removeIfPresent(screenshotFile(slot))
        }
        try AtomicFile.write(sidecar, to: metadataFile(slot))
        try AtomicFile.write(writesRetroArchContainer ? RetroArchState.container(for: state) : state, to: stateFile(slot))
        return metadata
    }

    private func backUpBeforeSave(_ slot: StateSlot) throws {
        if exists(stateFile(slot)) {
            try replaceFiles(backupFiles(slot), with: contents(of: slotFiles(slot)))
            try removeIfPresent(undoEmptyMarker(slot))
        } else {
            for file in backupFiles(slot) { try removeIfPresent(file) }
            try AtomicFile.write(Data(), to: undoEmptyMarker(slot))
        }
    }

    /// A slot's files: state, sidecar, preview.
    private func slotFiles(_ slot: StateSlot) -> [URL] {
        [stateFile(slot), metadataFile(slot), screenshotFile(slot)]
    }

    /// The backup copies of `slotFiles`, in the same order.
    private func backupFiles(_ slot: StateSlot) -> [URL] {
        [undoStateFile(slot), undoMetadataFile(slot), undoScreenshotFile(slot)]
    }

    /// The bytes of each file, nil where a file does not exist.
    private func contents(of files: [URL]) throws -> [Data?] {
        try files.map { exists($0) ? try Data(contentsOf: $0) : nil }
    }

    /// Writes `contents[i]` to `files[i]` (removing the file where it is nil), the state file
    /// (index 0) last: a set of files is whole once its state file is in place.
    private func replaceFiles(_ files: [URL], with contents: [Data?]) throws {
        for index in files.indices.reversed() {
            if let data = contents[index] {
                try AtomicFile.write(data, to: files[index])
            } else {
                try removeIfPresent(files[index])
            }
        }
    }

    // MARK: Loading

    /// A state read back from a slot.
    public struct LoadedState: Sendable {
        public var bytes: [UInt8]
        /// Nil for a state without a sidecar (e.g. one copied from RetroArch): it could not be checked.
        public var metadata: StateMetadata?
        /// Non-fatal notes, e.g. "saved with core version 1.2, running 1.3".
        public var warnings: [String]
    }

    /// Reads `slot` and checks it before any core sees it (`StateCheck`): not empty, not larger
    /// than `maximumStateSize`, paired with a sidecar of the same game (key, ROM CRC or size) and
    /// core, or else exactly `expectedSize` (`retro_serialize_size`) bytes. When `currentState` is
    /// given (the game's state right now) and the checks pass, it is kept for `undoLastLoad`.
    public func load(_ slot: StateSlot, expectedSize: Int? = nil, currentState: [UInt8]? = nil) throws -> LoadedState {
        try checkValid(slot)
        let file = stateFile(slot)
        let bytes = try readState(file, description: slot.description)
        let pairing = try pairedMetadata(slot, bytes: bytes)
        var warnings = pairing.notes
        warnings += try StateCheck.verify(bytes, paired: pairing.metadata, game: game, expectedSize: expectedSize, file: file)
        if let currentState, !currentState.isEmpty {
            try AtomicFile.write(currentState, to: beforeLoadFile)
        }
        return LoadedState(bytes: bytes, metadata: pairing.metadata, warnings: warnings)
    }

    /// The sidecar that describes `bytes`, the slot's state: its own, else the backup's (the
    /// save that wrote the slot's sidecar was killed before its state; the backup sidecar is the
    /// old state's), else none. Throws only when the slot's own sidecar is unreadable and no
    /// other describes the state.
    func pairedMetadata(_ slot: StateSlot, bytes: [UInt8]) throws -> (metadata: StateMetadata?, preview: URL?, notes: [String]) {
        var ownError: Error?
        do {
            if let own = try readMetadata(metadataFile(slot)) {
                if own.describes(bytes) { return (own, pairedPreview(screenshotFile(slot), for: own), []) }
            } else {
                return (nil, exists(screenshotFile(slot)) ? screenshotFile(slot) : nil, [])
            }
        } catch {
            ownError = error
        }
        if let backup = try? readMetadata(undoMetadataFile(slot)), backup.describes(bytes) {
            return (backup, pairedPreview(undoScreenshotFile(slot), for: backup),
                    ["\(stateFile(slot).lastPathComponent): the last save into \(slot) was interrupted; this is the state from before it"])
        }
        if let ownError { throw ownError }
        return (nil, nil, ["\(stateFile(slot).lastPathComponent): its metadata is of an interrupted save and does not match it"])
    }

    /// `file` when it is the preview `metadata` was written with (or the sidecar predates paired previews).
    private func pairedPreview(_ file: URL, for metadata: StateMetadata) -> URL? {
        guard exists(file) else { return nil }
        guard let expected = metadata.previewChecksum else { return file }
        guard let bytes = try? [UInt8](Data(contentsOf: file)), StateMetadata.checksum(of: bytes) == expected else { return nil }
        return file
    }

    private func readState(_ file: URL, description: String) throws -> [UInt8] {
        guard exists(file) else {
            throw StateStoreError(.emptySlot, file: file, "\(description) is empty")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= Self.maximumStateSize else {
            throw StateStoreError(.tooLarge, file: file, "is \(formatByteCount(size)), far larger than any save state; refusing it")
        }
        let bytes = [UInt8](try Data(contentsOf: file))
        guard !bytes.isEmpty else {
            throw StateStoreError(.damaged, file: file, "is empty (0 bytes); refusing to load it")
        }
        // A state RetroArch wrote (RASTATE, maybe RZIP-compressed) holds the core's bytes inside.
        do {
            return try RetroArchState.coreBytes(from: bytes)
        } catch {
            throw StateStoreError(.damaged, file: file, "\(error.description); refusing to load it")
        }
    }

    /// Nil when there is no sidecar; throws when there is one but it cannot be read.
    private func readMetadata(_ file: URL) throws -> StateMetadata? {
        switch readUserFile(file, maximumSize: Self.maximumSidecarSize) {
        case .missing: return nil
        case .failed(let error): throw StateStoreError(.damaged, file: file, error.problem)
        case .read(let bytes):
            do {
                return try StateMetadata.decoder().decode(StateMetadata.self, from: Data(bytes))
            } catch {
                throw StateStoreError(.damaged, file: file, "the state's metadata is unreadable (\(Self.describe(error)))")
            }
        }
    }

    // MARK: Undo

    /// Whether `undoLastSave(slot)` has something to restore.
    public func canUndoSave(_ slot: StateSlot) -> Bool {
        exists(undoStateFile(slot)) || exists(undoEmptyMarker(slot))
    }

    /// Puts back what `slot` held before the last save into it, and keeps the undone save as the
    /// new backup (so a second undo redoes it). Returns the restored state, or nil when the slot
    /// was empty before that save (it is empty again now).
    @discardableResult
    public func undoLastSave(_ slot: StateSlot) throws -> LoadedState? {
        try checkValid(slot)
        try checkUnlocked(slot, action: "undo a save in")
        let hadBackup = exists(undoStateFile(slot))
        guard hadBackup || exists(undoEmptyMarker(slot)) else {
            throw StateStoreError(.nothingToUndo, file: stateFile(slot), "there is no earlier save of \(slot) to go back to")
        }
        let earlier = try contents(of: backupFiles(slot))
        // The save being undone becomes the new backup, so a second undo redoes it.
        try backUpBeforeSave(slot)
        if hadBackup {
            try replaceFiles(slotFiles(slot), with: earlier)
            return try load(slot)
        }
        // The slot was empty before that save: empty it again (state first, so it reads as empty).
        for file in slotFiles(slot) { try removeIfPresent(file) }
        return nil
    }

    /// Whether a state from before the last load is kept.
    public var canUndoLoad: Bool { exists(beforeLoadFile) }

    /// The state the game was in before the last `load(_:currentState:)`: load these bytes into
    /// the core to undo the load. `currentState` (the state now) takes its place, so undoing again
    /// returns to it.
    public func undoLastLoad(currentState: [UInt8]) throws -> [UInt8] {
        guard exists(beforeLoadFile) else {
            throw StateStoreError(.nothingToUndo, file: beforeLoadFile, "no state was loaded yet, so there is nothing to undo")
        }
        let previous = try readState(beforeLoadFile, description: "the state before the last load")
        if !currentState.isEmpty {
            try AtomicFile.write(currentState, to: beforeLoadFile)
        }
        return previous
    }

    // MARK: Listing, locking, deleting

    /// What one slot holds, for the save/load menus.
    public struct SlotSummary: Sendable {
        public var slot: StateSlot
        public var isOccupied: Bool
        public var isLocked: Bool
        /// Nil when the slot is empty, has no sidecar, or its sidecar is unreadable (see `problem`).
        public var metadata: StateMetadata?
        /// The PNG preview, when there is one.
        public var screenshot: URL?
        /// Modification time of the state file.
        public var modified: Date?
        /// Why the metadata could not be read, when a sidecar exists but is broken.
        public var problem: String?
    }

    /// Every slot (quick, 1–9, auto), occupied or not, in menu order.
    public func list() -> [SlotSummary] {
        StateSlot.all.map { slot in
            let file = stateFile(slot)
            var summary = SlotSummary(slot: slot, isOccupied: exists(file), isLocked: isLocked(slot))
            guard summary.isOccupied else { return summary }
            summary.modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
            do {
                // What the menu shows must be the state a load would give: after an interrupted
                // save, the old state's details and preview, not the new ones beside it.
                let bytes = try readState(file, description: slot.description)
                let pairing = try pairedMetadata(slot, bytes: bytes)
                summary.metadata = pairing.metadata
                summary.screenshot = pairing.preview
            } catch {
                summary.problem = "\(error)"
            }
            return summary
        }
    }

    public func isLocked(_ slot: StateSlot) -> Bool { exists(lockFile(slot)) }

    /// Locks or unlocks `slot`. A locked slot refuses saves, deletion and undo.
    public func setLocked(_ locked: Bool, _ slot: StateSlot) throws {
        try checkValid(slot)
        if locked {
            try AtomicFile.write(Data(), to: lockFile(slot))
        } else {
            try removeIfPresent(lockFile(slot))
        }
    }

    /// Removes the state, its sidecar and preview. Refused for a locked slot.
    public func delete(_ slot: StateSlot) throws {
        try checkValid(slot)
        try checkUnlocked(slot, action: "delete")
        guard exists(stateFile(slot)) else {
            throw StateStoreError(.emptySlot, file: stateFile(slot), "\(slot) is already empty")
        }
        // State first: once it is gone the slot reads as empty even if the rest stays behind.
        for file in [stateFile(slot), metadataFile(slot), screenshotFile(slot)] { try removeIfPresent(file) }
    }

    // MARK: Helpers

    private func checkValid(_ slot: StateSlot) throws {
        guard slot.isValid else {
            throw StateStoreError(.invalidSlot, file: nil, "there is no save-state slot \(slot.identifier) (slots are 1–9, quick and auto)")
        }
    }

    private func checkUnlocked(_ slot: StateSlot, action: String) throws {
        if isLocked(slot) {
            throw StateStoreError(.locked, file: stateFile(slot), "\(slot) is locked; unlock it to \(action) it")
        }
    }

    private func removeIfPresent(_ file: URL) throws {
        guard exists(file) else { return }
        try FileManager.default.removeItem(at: file)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "not valid JSON" : "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
