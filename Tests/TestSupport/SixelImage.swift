/// A small sixel decoder for the encoder tests: raster attributes, colour definitions (`#n;2;r;g;b`
/// in per cent), colour selection, repeats (`!n`), carriage return (`$`) and next band (`-`).
/// Pixels never drawn are nil (P2 = 1 leaves them as they were).
public struct SixelImage {
    public var width: Int
    public var height: Int
    public var pixels: [UInt32?]
    /// Times a pixel already drawn was drawn again (an encoder that partitions each band's bits
    /// among its colours never does).
    public var overdrawn = 0

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public static func decode(_ bytes: [UInt8]) throws -> SixelImage {
        guard let start = bytes.firstIndex(of: UInt8(ascii: "q")), bytes.first == 0x1B, bytes[1] == UInt8(ascii: "P") else {
            throw Failure(description: "no DCS … q")
        }
        guard bytes.suffix(2) == [0x1B, UInt8(ascii: "\\")] else { throw Failure(description: "no ST at the end") }
        let body = Array(bytes[(start + 1)..<(bytes.count - 2)])
        var index = 0
        func number() -> Int {
            var value = 0
            while index < body.count, (48...57).contains(body[index]) {
                value = value * 10 + Int(body[index] - 48)
                index += 1
            }
            return value
        }
        func numbers() -> [Int] {
            var values = [number()]
            while index < body.count, body[index] == UInt8(ascii: ";") {
                index += 1
                values.append(number())
            }
            return values
        }
        var image = SixelImage(width: 0, height: 0, pixels: [], overdrawn: 0)
        var palette: [Int: UInt32] = [:]
        var color = 0
        var x = 0
        var band = 0
        func put(_ mask: UInt8, count: Int) throws {
            for _ in 0..<count {
                for bit in 0..<6 where mask & (1 << bit) != 0 {
                    let y = band * 6 + bit
                    guard x < image.width, y < image.height else { throw Failure(description: "pixel (\(x), \(y)) outside the raster") }
                    guard let value = palette[color] else { throw Failure(description: "colour \(color) used before it was defined") }
                    if image.pixels[y * image.width + x] != nil { image.overdrawn += 1 }
                    image.pixels[y * image.width + x] = value
                }
                x += 1
            }
        }
        while index < body.count {
            let byte = body[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let values = numbers()
                guard values.count == 4 else { throw Failure(description: "raster attributes \(values)") }
                image.width = values[2]
                image.height = values[3]
                image.pixels = Array(repeating: nil, count: image.width * image.height)
            case UInt8(ascii: "#"):
                index += 1
                let values = numbers()
                if values.count == 5 {
                    guard values[1] == 2 else { throw Failure(description: "colour space \(values[1])") }
                    func component(_ percent: Int) -> UInt32 { UInt32((percent * 255 + 50) / 100) }
                    palette[values[0]] = component(values[2]) << 16 | component(values[3]) << 8 | component(values[4])
                }
                color = values[0]
            case UInt8(ascii: "!"):
                index += 1
                let count = number()
                guard index < body.count, (63...126).contains(body[index]) else { throw Failure(description: "repeat without a sixel") }
                try put(body[index] - 63, count: count)
                index += 1
            case UInt8(ascii: "$"):
                x = 0
                index += 1
            case UInt8(ascii: "-"):
                x = 0
                band += 1
                index += 1
            case 63...126:
                try put(byte - 63, count: 1)
                index += 1
            default:
                throw Failure(description: "unexpected byte \(byte) at \(index)")
            }
        }
        return image
    }
}
