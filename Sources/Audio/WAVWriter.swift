import Foundation
import Glibc
import PhosphorKit

/// Writes 16-bit stereo PCM as a WAV file (`phosphor run --headless --audio-wav FILE`).
///
/// Samples stream into a hidden temporary file beside the target; `finish()` fills in the RIFF
/// header's lengths, fsyncs and renames it over the target. An interrupted run therefore never
/// leaves a torn WAV or clobbers an existing one. One thread owns an instance.
public final class WAVWriter {
    public let url: URL
    public let sampleRate: Int
    /// Stereo frames written so far.
    public private(set) var frameCount = 0

    private let temporaryURL: URL
    private var handle: FileHandle?

    /// The header is 44 bytes: RIFF chunk, "fmt " chunk (PCM, 2 channels, 16 bits), "data" chunk.
    public static let headerSize = 44

    /// Creates the temporary file. Throws `AudioError.cannotWriteWAV` naming the file and the step.
    public init(url: URL, sampleRate: Int = AudioOutput.deviceRate) throws {
        self.url = url
        self.sampleRate = sampleRate
        let folder = url.deletingLastPathComponent()
        temporaryURL = folder.appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporaryURL.path, contents: nil) else {
                throw AudioError.cannotWriteWAV(path: url.path, reason: "cannot create \(temporaryURL.path)")
            }
            let handle = try FileHandle(forWritingTo: temporaryURL)
            try handle.write(contentsOf: WAVWriter.header(sampleRate: sampleRate, frames: 0))
            self.handle = handle
        } catch let error as AudioError {
            throw error
        } catch {
            throw AudioError.cannotWriteWAV(path: url.path, reason: error.localizedDescription)
        }
    }

    deinit {
        if let handle {
            try? handle.close()
            unlink(temporaryURL.path)
        }
    }

    /// Appends interleaved stereo samples (left, right, left, …); an odd trailing sample is dropped.
    public func append(_ samples: [Int16]) throws {
        guard let handle else { throw AudioError.cannotWriteWAV(path: url.path, reason: "already finished") }
        let frames = samples.count / 2
        guard frames > 0 else { return }
        guard (frameCount + frames) * 4 <= Int(UInt32.max) - WAVWriter.headerSize else {
            throw AudioError.cannotWriteWAV(path: url.path, reason: "longer than a WAV file can hold (4 GiB)")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(frames * 4)
        for sample in samples[0..<(frames * 2)] {
            let value = UInt16(bitPattern: sample)
            bytes.append(UInt8(value & 0xFF))
            bytes.append(UInt8(value >> 8))
        }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw AudioError.cannotWriteWAV(path: url.path, reason: error.localizedDescription)
        }
        frameCount += frames
    }

    /// Writes the final header, fsyncs, and renames the file into place.
    public func finish() throws {
        guard let handle else { throw AudioError.cannotWriteWAV(path: url.path, reason: "already finished") }
        do {
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: WAVWriter.header(sampleRate: sampleRate, frames: frameCount))
            try handle.synchronize()
            try handle.close()
            self.handle = nil
            try systemCall("rename(\(url.lastPathComponent))") { rename(temporaryURL.path, url.path) }
        } catch let error as SystemError {
            unlink(temporaryURL.path)
            throw AudioError.cannotWriteWAV(path: url.path, reason: error.description)
        } catch {
            self.handle = nil
            unlink(temporaryURL.path)
            throw AudioError.cannotWriteWAV(path: url.path, reason: error.localizedDescription)
        }
    }

    /// The 44-byte header of a 16-bit stereo PCM WAV holding `frames` frames.
    public static func header(sampleRate: Int, frames: Int) -> [UInt8] {
        let dataBytes = UInt32(frames * 4)
        var bytes = [UInt8]()
        bytes.reserveCapacity(headerSize)
        func text(_ string: String) { bytes.append(contentsOf: Array(string.utf8)) }
        func u32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) } }
        func u16(_ value: UInt16) { bytes.append(UInt8(value & 0xFF)); bytes.append(UInt8(value >> 8)) }
        text("RIFF")
        u32(36 + dataBytes)
        text("WAVE")
        text("fmt ")
        u32(16)                          // fmt chunk size
        u16(1)                           // PCM
        u16(2)                           // channels
        u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * 4))      // bytes per second
        u16(4)                           // bytes per frame
        u16(16)                          // bits per sample
        text("data")
        u32(dataBytes)
        return bytes
    }
}
