import PhosphorKit

/// A key bound to an analog stick pushes it fully one way (libretro's 0x7FFF), or halfway with
/// Shift held. Raw values are the names in key-map files ("left-stick-up"...). On the Nintendo 64
/// the right stick is the C buttons (as mupen64plus-next and parallel-n64 read it).
public enum StickDirection: String, CaseIterable, Sendable, Hashable {
    case leftUp = "left-stick-up", leftDown = "left-stick-down"
    case leftLeft = "left-stick-left", leftRight = "left-stick-right"
    case rightUp = "right-stick-up", rightDown = "right-stick-down"
    case rightLeft = "right-stick-left", rightRight = "right-stick-right"

    public var stick: AnalogStick {
        switch self {
        case .leftUp, .leftDown, .leftLeft, .leftRight: .left
        case .rightUp, .rightDown, .rightLeft, .rightRight: .right
        }
    }

    /// The unit push: x right, y down (libretro's axes).
    var unit: (x: Int, y: Int) {
        switch self {
        case .leftUp, .rightUp: (0, -1)
        case .leftDown, .rightDown: (0, 1)
        case .leftLeft, .rightLeft: (-1, 0)
        case .leftRight, .rightRight: (1, 0)
        }
    }

    /// What the console calls it, for the key-map editor ("Stick up", "C up" on the N64).
    public func label(for system: GameSystem) -> String {
        let way = switch unit {
        case (0, -1): "up"
        case (0, 1): "down"
        case (-1, 0): "left"
        default: "right"
        }
        if system == .n64 { return stick == .left ? "Stick \(way)" : "C \(way)" }
        return "\(stick == .left ? "Left" : "Right") stick \(way)"
    }

    /// Where the keys held push `stick`: each held direction at full deflection, or half when
    /// `half` says so for it; opposite directions cancel.
    static func position(of stick: AnalogStick, held: [(direction: StickDirection, half: Bool)]) -> StickPosition {
        var x = 0, y = 0
        for (direction, half) in held where direction.stick == stick {
            let amount = half ? StickPosition.full / 2 : StickPosition.full
            x += direction.unit.x * amount
            y += direction.unit.y * amount
        }
        let clamp = { (value: Int) in Int16(max(-StickPosition.full, min(StickPosition.full, value))) }
        return StickPosition(x: clamp(x), y: clamp(y))
    }
}
