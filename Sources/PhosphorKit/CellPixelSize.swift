/// How many pixels one terminal cell covers (from `CSI 16 t` or the tty's window size).
public struct CellPixelSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height) px" }
}
