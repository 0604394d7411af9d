// StateSlotProbe: saves into one save-state slot with the real `StateStore` forever, alternating
// two versions (state, preview and sidecar), so ReliabilityTests can SIGKILL it at random moments
// and check the slot always loads as one whole version with its own sidecar and preview.
//
// usage: StateSlotProbe FOLDER [STATE-BYTES]
// Version A: every state byte 0xAA, a preview of colour 0xAA; version B likewise with 0xBB. The
// game is `probe` (GB, core `Probe`). Prints "ready" on stdout once the first save is on disk.
import Foundation
import PhosphorKit
import Shell

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: StateSlotProbe FOLDER [STATE-BYTES]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
let stateSize = arguments.count > 2 ? Int(arguments[2]) ?? 131_072 : 131_072
let store = StateStore(folder: folder, game: StateSlotProbeGame.identity)

var count = 0
while true {
    let fill: UInt8 = count % 2 == 0 ? 0xAA : 0xBB
    do {
        try store.save([UInt8](repeating: fill, count: stateSize), to: .numbered(1),
                       screenshot: StateSlotProbeGame.preview(fill: fill))
    } catch {
        FileHandle.standardError.write(Data("save failed: \(error)\n".utf8))
        exit(1)
    }
    if count == 0 { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
    count += 1
}

/// The probe's game and previews (the test builds the same ones to compare).
enum StateSlotProbeGame {
    static let identity = GameIdentity(key: "probe", system: .gb, romSize: 32_768, coreName: "Probe", coreVersion: "1")

    /// A 32×32 picture of one colour.
    static func preview(fill: UInt8) -> VideoFrame {
        VideoFrame(width: 32, height: 32, format: .xrgb8888,
                   pixels: [UInt8](repeating: fill, count: 32 * 32 * 4), sequence: UInt64(fill))
    }
}
