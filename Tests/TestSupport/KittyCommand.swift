import Foundation

/// Reads kitty graphics commands back out of a byte stream (what a terminal would do): every
/// `ESC _ G keys ; payload ESC \`, with chunked transmissions (`m=1` … `m=0`) joined into one
/// command whose payload is the base64-decoded whole. For the encoder tests.
public struct KittyCommand {
    public var keys: [String: String]
    /// The decoded payload of all chunks.
    public var payload: [UInt8]
    /// How many APC strings this command came in, and the longest base64 chunk.
    public var chunkCount: Int
    public var longestChunk: Int

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public static func parse(_ bytes: [UInt8]) throws -> [KittyCommand] {
        var commands: [KittyCommand] = []
        var pending: KittyCommand?
        var pendingBase64: [UInt8] = []
        var index = 0
        while index + 2 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "_"), bytes[index + 2] == UInt8(ascii: "G") else {
                index += 1
                continue
            }
            var end = index + 3
            while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
            guard end + 1 < bytes.count else { throw Failure(description: "an APC string is not terminated") }
            let body = Array(bytes[(index + 3)..<end])
            let split = body.firstIndex(of: UInt8(ascii: ";")) ?? body.count
            var keys: [String: String] = [:]
            for pair in String(decoding: body[..<split], as: UTF8.self).split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw Failure(description: "bad key '\(pair)'") }
                keys[parts[0]] = parts[1]
            }
            let chunk = split < body.count ? Array(body[(split + 1)...]) : []
            if var command = pending {
                guard Set(keys.keys).isSubset(of: ["m", "q"]) else { throw Failure(description: "a continuation chunk carries keys \(keys)") }
                command.chunkCount += 1
                command.longestChunk = max(command.longestChunk, chunk.count)
                pending = command
            } else {
                pending = KittyCommand(keys: keys, payload: [], chunkCount: 1, longestChunk: chunk.count)
            }
            pendingBase64 += chunk
            if keys["m"] != "1" {
                guard var command = pending else { break }
                guard let data = Data(base64Encoded: Data(pendingBase64)) else { throw Failure(description: "payload is not base64") }
                command.payload = Array(data)
                command.keys["m"] = nil
                commands.append(command)
                pending = nil
                pendingBase64 = []
            }
            index = end + 2
        }
        if pending != nil { throw Failure(description: "a chunked command never ended (m=0 missing)") }
        return commands
    }
}
