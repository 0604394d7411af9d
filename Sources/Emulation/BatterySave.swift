import Dispatch
import Foundation
import PhosphorKit
import Synchronization

/// A game's battery-backed RAM (`<game>.srm`, RetroArch's name) or its real-time clock
/// (`RETRO_MEMORY_RTC`, `<game>.rtc`): loaded before the first frame, written on quit and pause,
/// and every few seconds when it changed, so a crash loses at most the last few seconds.
///
/// Threading: called on the core thread. Periodic writes copy the RAM on the core thread (cheap) and
/// write the file on a background queue, so a slow disk never stalls emulation.
final class BatterySave {
    let file: URL
    /// What the memory is, for messages: "battery save" or "clock".
    let kind: String
    /// Writes the file on the first check even when the memory did not change. A clock must:
    /// gambatte's holds the wall-clock time it started from and never changes while the game
    /// runs, so without a file the next start would begin a new clock.
    let writesFreshMemory: Bool
    private var memory: UnsafeMutableRawPointer?
    private var size = 0
    /// What the file on disk holds (or will, once the queued write finishes).
    private var lastWritten: [UInt8] = []
    private var framesSinceCheck = 0
    private let writer = DispatchQueue(label: "phosphor.battery-save")
    /// A message for the user when the file on disk could not be used.
    private(set) var problem: String?
    /// The last failed write (a full or read-only disk), for the user; nil once a write succeeds.
    /// Set on the writer queue, read from any thread.
    let writeFailure = SharedMessage()

    init(file: URL, kind: String = "battery save", writesFreshMemory: Bool = false) {
        self.file = file
        self.kind = kind
        self.writesFreshMemory = writesFreshMemory
    }

    var hasBatteryRAM: Bool { memory != nil && size > 0 }

    func attach(data: UnsafeMutableRawPointer?, size: Int) {
        memory = data
        self.size = data == nil ? 0 : size
    }

    /// Copies the file into the core's RAM. A file of the wrong size is moved aside (never
    /// overwritten) and the game starts with empty RAM.
    func loadFromDisk() throws {
        guard hasBatteryRAM, let memory else { return }
        guard FileManager.default.fileExists(atPath: file.path) else {
            lastWritten = writesFreshMemory ? [] : snapshot()
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try [UInt8](Data(contentsOf: file))
        } catch {
            problem = "\(file.lastPathComponent): cannot read \(kind) (\(error.localizedDescription)); starting without it"
            Log.error(problem!)
            lastWritten = snapshot()
            return
        }
        guard bytes.count == size else {
            let aside = file.appendingPathExtension("wrong-size-\(Int(Date().timeIntervalSince1970))")
            try? FileManager.default.moveItem(at: file, to: aside)
            problem = "\(file.lastPathComponent): \(kind) is \(bytes.count) bytes, the game uses \(size); kept it as \(aside.lastPathComponent) and started without it"
            Log.error(problem!)
            lastWritten = writesFreshMemory ? [] : snapshot()
            return
        }
        bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: size) }
        lastWritten = bytes
    }

    /// Called after every frame: every ~3 seconds, writes the RAM if it changed.
    func frameDidRun(framesPerSecond: Double) {
        guard hasBatteryRAM else { return }
        framesSinceCheck += 1
        guard Double(framesSinceCheck) >= framesPerSecond * 3 else { return }
        framesSinceCheck = 0
        writeIfChanged(synchronously: false)
    }

    /// Writes now and waits (quit, pause).
    func writeNow() {
        guard hasBatteryRAM else { return }
        writeIfChanged(synchronously: true)
    }

    func waitForPendingWrites() { writer.sync {} }

    private func snapshot() -> [UInt8] {
        guard let memory else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: memory, count: size))
    }

    private func writeIfChanged(synchronously: Bool) {
        let current = snapshot()
        // While the last write failed (a full disk), try again even if the RAM did not change:
        // otherwise the newest save would only reach the disk after the game wrote to it again.
        guard current != lastWritten || writeFailure.value != nil else { return }
        lastWritten = current
        let file = self.file
        let kind = self.kind
        let failure = writeFailure
        let job: @Sendable () -> Void = {
            do {
                try AtomicFile.write(current, to: file)
                failure.set(nil)
            } catch {
                let message = "\(kind): \(error)"
                Log.error(message)
                failure.set(message)
            }
        }
        if synchronously {
            writer.sync(execute: job)
        } else {
            writer.async(execute: job)
        }
    }
}

/// One message shared between threads (the battery writer queue sets it, the core thread reads it).
final class SharedMessage: Sendable {
    private let message = Mutex<String?>(nil)

    func set(_ text: String?) { message.withLock { $0 = text } }
    var value: String? { message.withLock { $0 } }
}
