internal import CEvdev
import PhosphorKit

/// One evdev record (struct input_event without its timestamp).
public struct GamepadEvent: Sendable, Hashable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    static let keyType = UInt16(EV_KEY)
    static let absoluteType = UInt16(EV_ABS)
    static let syncType = UInt16(EV_SYN)
}

/// An absolute axis as EVIOCGABS reports it; `restValue` is its value when the device was opened
/// (a trigger rests at its minimum, a stick in the middle).
public struct AxisRange: Sendable, Hashable {
    public var minimum: Int32
    public var maximum: Int32
    public var restValue: Int32

    public init(minimum: Int32, maximum: Int32, restValue: Int32) {
        self.minimum = minimum
        self.maximum = maximum
        self.restValue = restValue
    }

    var isTrigger: Bool { minimum >= 0 && restValue <= minimum + (maximum - minimum) / 8 }

    /// -1...1 around the centre (sticks) or 0...1 from the minimum (triggers).
    func normalized(_ value: Int32) -> Double {
        let span = Double(maximum) - Double(minimum)
        guard span > 0 else { return 0 }
        if isTrigger { return (Double(value) - Double(minimum)) / span }
        return (Double(value) - Double(minimum)) / span * 2 - 1
    }
}

/// The buttons one pad holds, as a pure function of the events it sent: buttons through the
/// mapping, the d-pad as buttons or as the hat axes, the left stick as a d-pad past the deadzone,
/// analog triggers as L2/R2. Owned by `GamepadManager` (UI thread).
public struct GamepadState: Sendable {
    public var mapping: GamepadMapping
    public var axes: [UInt16: AxisRange]
    /// How far a stick must move (0...1 of its half range) to count as a direction.
    public var deadzone: Double
    /// How far a stick must move before it reads as analog input at all (0...1 of its half range,
    /// measured from the centre in any direction): a worn stick rests a little off centre.
    public var analogDeadzone: Double = 0.15

    private var pressedCodes: Set<UInt16> = []
    private var axisValues: [UInt16: Int32] = [:]

    public init(mapping: GamepadMapping = .standard, axes: [UInt16: AxisRange] = [:], deadzone: Double = 0.5) {
        self.mapping = mapping
        self.axes = axes
        self.deadzone = deadzone
        for (code, range) in axes { axisValues[code] = range.restValue }
    }

    public mutating func apply(_ event: GamepadEvent) {
        switch event.type {
        case GamepadEvent.keyType:
            // 1 press, 2 autorepeat (keyboards), 0 release.
            if event.value == 0 { pressedCodes.remove(event.code) } else { pressedCodes.insert(event.code) }
        case GamepadEvent.absoluteType:
            axisValues[event.code] = event.value
        default:
            break
        }
    }

    public mutating func apply(_ events: [GamepadEvent]) {
        for event in events { apply(event) }
    }

    /// Replaces the whole state with what the device reports now (after opening it, or after
    /// the kernel dropped events: SYN_DROPPED).
    public mutating func resynchronize(pressed: Set<UInt16>, axisValues: [UInt16: Int32]) {
        pressedCodes = pressed
        for (code, value) in axisValues { self.axisValues[code] = value }
    }

    /// Forgets everything pressed (the device went away).
    public mutating func reset() {
        pressedCodes.removeAll()
        for (code, range) in axes { axisValues[code] = range.restValue }
    }

    public var buttons: ButtonMask {
        var mask: ButtonMask = []
        for code in pressedCodes where mapping.actions[code] == nil {
            if let button = mapping.buttons[code] { mask.insert(button) }
        }
        // Hat: -1, 0 or 1 on each axis.
        if let x = axisValues[EvdevCode.hatX] {
            if x < 0 { mask.insert(.left) } else if x > 0 { mask.insert(.right) }
        }
        if let y = axisValues[EvdevCode.hatY] {
            if y < 0 { mask.insert(.up) } else if y > 0 { mask.insert(.down) }
        }
        if mapping.leftStickAsDirections {
            if let x = normalized(EvdevCode.axisX), !(axes[EvdevCode.axisX]?.isTrigger ?? true) {
                if x <= -deadzone { mask.insert(.left) } else if x >= deadzone { mask.insert(.right) }
            }
            if let y = normalized(EvdevCode.axisY), !(axes[EvdevCode.axisY]?.isTrigger ?? true) {
                if y <= -deadzone { mask.insert(.up) } else if y >= deadzone { mask.insert(.down) }
            }
        }
        for (axis, button) in [(EvdevCode.axisZ, JoypadButton.l2), (EvdevCode.axisRZ, .r2)] {
            if let range = axes[axis], range.isTrigger, let value = normalized(axis), value >= 0.5 {
                mask.insert(button)
            }
        }
        return mask
    }

    /// The actions whose pad buttons are down (real presses and releases: a held action lasts
    /// exactly as long as its button).
    public var actions: Set<InputAction> {
        Set(pressedCodes.compactMap { mapping.actions[$0] })
    }

    /// Where `stick` points, in libretro's units, for RETRO_DEVICE_ANALOG: the left stick is
    /// ABS_X/ABS_Y, the right ABS_RX/ABS_RY (or ABS_Z/ABS_RZ on pads that put it there and
    /// have no analog triggers on them). Inside the dead zone it reads centred; beyond it the
    /// distance is rescaled so the edge of the dead zone is 0 and full deflection 0x7FFF.
    public func stick(_ stick: AnalogStick) -> StickPosition {
        let (xAxis, yAxis): (UInt16, UInt16) = switch stick {
        case .left: (EvdevCode.axisX, EvdevCode.axisY)
        case .right: axes[EvdevCode.axisRX] != nil ? (EvdevCode.axisRX, EvdevCode.axisRY) : (EvdevCode.axisZ, EvdevCode.axisRZ)
        }
        guard let xRange = axes[xAxis], let yRange = axes[yAxis], !xRange.isTrigger, !yRange.isTrigger,
              let x = normalized(xAxis), let y = normalized(yAxis) else { return .centre }
        let distance = (x * x + y * y).squareRoot()
        guard distance > analogDeadzone else { return .centre }
        let scale = min((distance - analogDeadzone) / (1 - analogDeadzone), 1) / distance
        let full = Double(StickPosition.full)
        let clamp = { (value: Double) in Int16(max(-full, min(full, (value * scale * full).rounded()))) }
        return StickPosition(x: clamp(x), y: clamp(y))
    }

    private func normalized(_ axis: UInt16) -> Double? {
        guard let range = axes[axis], let value = axisValues[axis] else { return nil }
        return range.normalized(value)
    }
}

/// The evdev codes the gamepad code uses, as `UInt16`.
public enum EvdevCode {
    public static let south = UInt16(BTN_SOUTH), east = UInt16(BTN_EAST)
    public static let north = UInt16(BTN_NORTH), west = UInt16(BTN_WEST)
    public static let leftShoulder = UInt16(BTN_TL), rightShoulder = UInt16(BTN_TR)
    public static let leftTrigger = UInt16(BTN_TL2), rightTrigger = UInt16(BTN_TR2)
    public static let select = UInt16(BTN_SELECT), start = UInt16(BTN_START), mode = UInt16(BTN_MODE)
    public static let leftThumb = UInt16(BTN_THUMBL), rightThumb = UInt16(BTN_THUMBR)
    public static let dpadUp = UInt16(BTN_DPAD_UP), dpadDown = UInt16(BTN_DPAD_DOWN)
    public static let dpadLeft = UInt16(BTN_DPAD_LEFT), dpadRight = UInt16(BTN_DPAD_RIGHT)
    /// Generic USB joysticks (many cheap SNES-style pads) use the BTN_JOYSTICK range.
    public static let joystickFirst = UInt16(BTN_TRIGGER)
    public static let axisX = UInt16(ABS_X), axisY = UInt16(ABS_Y), axisZ = UInt16(ABS_Z), axisRZ = UInt16(ABS_RZ)
    public static let axisRX = UInt16(ABS_RX), axisRY = UInt16(ABS_RY)
    public static let hatX = UInt16(ABS_HAT0X), hatY = UInt16(ABS_HAT0Y)
    static let touch = UInt16(BTN_TOUCH), toolFinger = UInt16(BTN_TOOL_FINGER)
}
