// AtomicWriteProbe: rewrites one file with `AtomicFile.write` forever, alternating two complete
// versions, so ReliabilityTests can SIGKILL it at random moments and check the file on disk is
// always exactly one whole version.
//
// usage: AtomicWriteProbe FILE [PAYLOAD-BYTES]
// Each version: "ATOM", version byte ('A' or 'B'), 3 zero bytes, payload length (UInt32 LE),
// FNV-1a 32 of the payload (UInt32 LE), then the payload (every byte 0xAA or 0xBB).
// Prints "ready" on stdout once the first write is on disk.
import Foundation
import PhosphorKit

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: AtomicWriteProbe FILE [PAYLOAD-BYTES]\n".utf8))
    exit(2)
}
let target = URL(fileURLWithPath: arguments[1])
let payloadSize = arguments.count > 2 ? Int(arguments[2]) ?? 262_144 : 262_144

func version(_ letter: UInt8, fill: UInt8) -> [UInt8] {
    let payload = [UInt8](repeating: fill, count: payloadSize)
    var hash: UInt32 = 2_166_136_261
    for byte in payload { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    return Array("ATOM".utf8) + [letter, 0, 0, 0] + littleEndian(UInt32(payloadSize)) + littleEndian(hash) + payload
}

let versions = [version(UInt8(ascii: "A"), fill: 0xAA), version(UInt8(ascii: "B"), fill: 0xBB)]
var count = 0
while true {
    do {
        try AtomicFile.write(versions[count % 2], to: target)
    } catch {
        FileHandle.standardError.write(Data("AtomicWriteProbe: \(error)\n".utf8))
        exit(1)
    }
    if count == 0 { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
    count += 1
}
