import PhosphorKit

/// The bytes of a scripted core's save state: `PHSCRIPT`, a format byte, the title's hash, the
/// frame counter, the tone phase, the battery RAM (length-prefixed), and an FNV-1a checksum of
/// everything before it, all little-endian. Any thread (value type).
struct ScriptedState: Equatable {
    static let magic = Array("PHSCRIPT".utf8)
    static let formatVersion: UInt8 = 1

    var title: String
    var frameCount: UInt64
    var samplePosition: UInt64
    var batteryRAM: [UInt8]

    init(title: String, frameCount: UInt64, samplePosition: UInt64, batteryRAM: [UInt8]) {
        self.title = title
        self.frameCount = frameCount
        self.samplePosition = samplePosition
        self.batteryRAM = batteryRAM
    }

    func encoded() -> [UInt8] {
        var bytes = ScriptedState.magic + [ScriptedState.formatVersion]
        append(ScriptedState.titleHash(title), to: &bytes)
        append(frameCount, to: &bytes)
        append(samplePosition, to: &bytes)
        append(UInt32(batteryRAM.count), to: &bytes)
        bytes += batteryRAM
        append(ScriptedState.checksum(bytes), to: &bytes)
        return bytes
    }

    /// Reads a state of the game `title`; throws `EmulationError.stateRejected` for anything else.
    init(decoding bytes: [UInt8], title: String, batterySize: Int) throws {
        func reject(_ reason: String) -> EmulationError { .stateRejected(reason: reason) }
        let fixed = ScriptedState.magic.count + 1 + 8 * 3 + 4
        guard bytes.count >= ScriptedState.magic.count, Array(bytes.prefix(ScriptedState.magic.count)) == ScriptedState.magic else {
            throw reject("not a scripted core state")
        }
        guard bytes.count >= fixed + 8 else { throw reject("the state is truncated (\(bytes.count) bytes)") }
        guard bytes[ScriptedState.magic.count] == ScriptedState.formatVersion else {
            throw reject("state format \(bytes[ScriptedState.magic.count]) is not \(ScriptedState.formatVersion)")
        }
        var reader = ByteReader(bytes: bytes, offset: ScriptedState.magic.count + 1)
        let titleHash: UInt64 = reader.read()
        let frameCount: UInt64 = reader.read()
        let samplePosition: UInt64 = reader.read()
        let batteryCount = Int(reader.read() as UInt32)
        guard bytes.count == fixed + batteryCount + 8 else {
            throw reject("the state is \(bytes.count) bytes but says \(fixed + batteryCount + 8) (truncated or padded)")
        }
        var tail = ByteReader(bytes: bytes, offset: fixed + batteryCount)
        let stored: UInt64 = tail.read()
        guard stored == ScriptedState.checksum(bytes[..<(fixed + batteryCount)]) else {
            throw reject("the state is corrupt (checksum mismatch)")
        }
        guard titleHash == ScriptedState.titleHash(title) else { throw reject("the state is from another game") }
        guard batteryCount == batterySize else { throw reject("the state holds \(batteryCount) bytes of battery RAM, not \(batterySize)") }
        self.init(title: title, frameCount: frameCount, samplePosition: samplePosition,
                  batteryRAM: Array(bytes[fixed..<(fixed + batteryCount)]))
    }

    private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func titleHash(_ title: String) -> UInt64 { checksum(Array(title.utf8)[...]) }

    private static func checksum(_ bytes: [UInt8]) -> UInt64 { checksum(bytes[...]) }

    private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hasher = FNV1a64()
        bytes.withUnsafeBytes { hasher.combine($0) }
        return hasher.value
    }

    /// Little-endian integers from a byte array, front to back.
    private struct ByteReader {
        let bytes: [UInt8]
        var offset: Int

        mutating func read<T: FixedWidthInteger>() -> T {
            let size = MemoryLayout<T>.size
            var value: T = 0
            for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
            offset += size
            return value
        }
    }
}
