import Foundation
import XCTest
@testable import PhosphorKit

final class RingTests: XCTestCase {
    func testSampleRingKeepsOrderAcrossTwoThreads() {
        let ring = SampleRing(minimumCapacity: 4096)
        let total = 2_000_000
        let producer = Thread {
            var next: Int16 = 0
            var chunk = [Int16](repeating: 0, count: 97)
            var sent = 0
            while sent < total {
                let n = min(chunk.count, total - sent)
                for i in 0..<n { chunk[i] = next &+ Int16(truncatingIfNeeded: i) }
                var offset = 0
                while offset < n {
                    offset += chunk.withUnsafeBufferPointer {
                        ring.write(UnsafeBufferPointer(rebasing: $0[offset..<n]))
                    }
                }
                next = next &+ Int16(truncatingIfNeeded: n)
                sent += n
            }
        }
        producer.start()
        var expected: Int16 = 0
        var received = 0
        var buffer = [Int16](repeating: 0, count: 113)
        while received < total {
            let n = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            for i in 0..<n {
                XCTAssertEqual(buffer[i], expected)
                if buffer[i] != expected { return }
                expected = expected &+ 1
            }
            received += n
        }
        XCTAssertEqual(received, total, "every sample arrives once, in order")
    }

    func testSampleRingDropsWhenFullAndCounts() {
        let ring = SampleRing(minimumCapacity: 1024)
        let samples = [Int16](repeating: 7, count: 1500)
        let written = samples.withUnsafeBufferPointer { ring.write($0) }
        XCTAssertEqual(written, 1024)
        XCTAssertEqual(ring.dropped, 476)
        XCTAssertEqual(ring.count, 1024)
    }

    func testMailboxDeliversLatestFrameAndNeverTears() {
        let mailbox = FrameMailbox()
        let frames = 20_000
        let producer = Thread {
            var pixels = [UInt32](repeating: 0, count: 64 * 8)
            for n in 1...frames {
                for i in pixels.indices { pixels[i] = UInt32(n) }
                pixels.withUnsafeBytes {
                    mailbox.publish(pixels: $0.baseAddress!, width: 64, height: 8, pitch: 256,
                                    format: .xrgb8888, sequence: UInt64(n))
                }
            }
        }
        producer.start()
        var lastSequence: UInt64 = 0
        while lastSequence < UInt64(frames) {
            guard let frame = mailbox.takeLatest() else { continue }
            XCTAssertGreaterThan(frame.sequence, lastSequence, "frames only move forward")
            let words = frame.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
            XCTAssertTrue(words.allSatisfy { $0 == UInt32(frame.sequence) }, "a frame is never torn")
            lastSequence = frame.sequence
        }
        XCTAssertNil(mailbox.takeLatest(), "nothing new after the last frame was taken")
    }

    func testMailboxFrameSaysWhenItWasPublished() throws {
        let mailbox = FrameMailbox()
        let pixels = [UInt32](repeating: 7, count: 4)
        let before = ContinuousClock.now
        pixels.withUnsafeBytes {
            mailbox.publish(pixels: $0.baseAddress!, width: 2, height: 2, pitch: 8, format: .xrgb8888, sequence: 1)
        }
        let after = ContinuousClock.now
        Thread.sleep(forTimeInterval: 0.02)
        let frame = try XCTUnwrap(mailbox.takeLatest())
        XCTAssertGreaterThanOrEqual(frame.publishedAt, before)
        XCTAssertLessThanOrEqual(frame.publishedAt, after, "the time of the publish, not of the take")
    }
}
