import Foundation
import PhosphorKit

/// Which evdev button code presses which RetroPad button, and which codes carry out a play
/// action (rewind, the pause menu...) instead. The default follows the RetroPad convention by
/// position: south = B, east = A, west = Y, north = X, shoulders L/R, triggers L2/R2.
public struct GamepadMapping: Sendable, Equatable {
    public var buttons: [UInt16: JoypadButton]
    /// Codes bound to an action: such a code presses no button (see `GamepadState.buttons`).
    public var actions: [UInt16: InputAction]
    public var leftStickAsDirections: Bool

    public init(buttons: [UInt16: JoypadButton], actions: [UInt16: InputAction] = [:],
                leftStickAsDirections: Bool = true) {
        self.buttons = buttons
        self.actions = actions
        self.leftStickAsDirections = leftStickAsDirections
    }

    /// Actions on pad buttons no console here uses (the thumbstick clicks are RetroPad L3/R3,
    /// which none of the supported systems has; the Guide/Mode button is no RetroPad button).
    public static let defaultActions: [UInt16: InputAction] = [
        EvdevCode.mode: .pauseMenu, EvdevCode.leftThumb: .rewind, EvdevCode.rightThumb: .fastForwardHold,
    ]

    /// Makes `code` press `button` (the button's other codes, and any action on `code`, are dropped).
    public mutating func bind(code: UInt16, to button: JoypadButton) {
        buttons = buttons.filter { $0.value != button }
        buttons[code] = button
        actions[code] = nil
    }

    /// Makes `code` carry out `action` (the action's other codes are dropped; `code` presses no button).
    public mutating func bind(code: UInt16, to action: InputAction) {
        actions = actions.filter { $0.value != action }
        actions[code] = action
    }

    /// This mapping with `defaultActions` added where they fit: on a code that has no action
    /// yet, for an action no code has yet, and only when the code presses no button the console
    /// uses (`usedButtons`), so a pad mapped to press L3 on a console with L3 keeps it.
    public func addingDefaultActions(keeping usedButtons: Set<JoypadButton>) -> GamepadMapping {
        var mapping = self
        for (code, action) in Self.defaultActions.sorted(by: { $0.key < $1.key })
        where actions[code] == nil && !actions.values.contains(action) {
            if let button = buttons[code], usedButtons.contains(button) { continue }
            mapping.actions[code] = action
        }
        return mapping
    }

    /// Evdev button names accepted in `gamepads.json` (lower case, without the `BTN_` prefix).
    static let codeNames: [(name: String, code: UInt16)] = [
        ("south", EvdevCode.south), ("east", EvdevCode.east), ("north", EvdevCode.north), ("west", EvdevCode.west),
        ("tl", EvdevCode.leftShoulder), ("tr", EvdevCode.rightShoulder), ("tl2", EvdevCode.leftTrigger),
        ("tr2", EvdevCode.rightTrigger), ("select", EvdevCode.select), ("start", EvdevCode.start),
        ("mode", EvdevCode.mode), ("thumbl", EvdevCode.leftThumb), ("thumbr", EvdevCode.rightThumb),
        ("dpad_up", EvdevCode.dpadUp), ("dpad_down", EvdevCode.dpadDown), ("dpad_left", EvdevCode.dpadLeft),
        ("dpad_right", EvdevCode.dpadRight),
        ("trigger", EvdevCode.joystickFirst), ("thumb", EvdevCode.joystickFirst + 1),
        ("thumb2", EvdevCode.joystickFirst + 2), ("top", EvdevCode.joystickFirst + 3),
        ("top2", EvdevCode.joystickFirst + 4), ("pinkie", EvdevCode.joystickFirst + 5),
        ("base", EvdevCode.joystickFirst + 6), ("base2", EvdevCode.joystickFirst + 7),
        ("base3", EvdevCode.joystickFirst + 8), ("base4", EvdevCode.joystickFirst + 9),
    ]

    /// An evdev button by name (`south`), decimal (`304`) or hex (`0x130`).
    static func code(named name: String) -> UInt16? {
        let lowered = name.lowercased()
        if let entry = codeNames.first(where: { $0.name == lowered }) { return entry.code }
        if lowered.hasPrefix("0x") { return UInt16(lowered.dropFirst(2), radix: 16) }
        return UInt16(lowered)
    }

    public static let standard = GamepadMapping(buttons: [
        EvdevCode.south: .b, EvdevCode.east: .a, EvdevCode.west: .y, EvdevCode.north: .x,
        EvdevCode.leftShoulder: .l, EvdevCode.rightShoulder: .r, EvdevCode.leftTrigger: .l2,
        EvdevCode.rightTrigger: .r2, EvdevCode.select: .select, EvdevCode.start: .start,
        EvdevCode.leftThumb: .l3, EvdevCode.rightThumb: .r3,
        EvdevCode.dpadUp: .up, EvdevCode.dpadDown: .down, EvdevCode.dpadLeft: .left, EvdevCode.dpadRight: .right,
        // Generic joysticks: trigger, thumb, thumb2, top, top2, pinkie, base...base4 in the order
        // cheap USB pads number their buttons.
        EvdevCode.joystickFirst: .x, EvdevCode.joystickFirst + 1: .a, EvdevCode.joystickFirst + 2: .b,
        EvdevCode.joystickFirst + 3: .y, EvdevCode.joystickFirst + 4: .l, EvdevCode.joystickFirst + 5: .r,
        EvdevCode.joystickFirst + 6: .l2, EvdevCode.joystickFirst + 7: .r2,
        EvdevCode.joystickFirst + 8: .select, EvdevCode.joystickFirst + 9: .start,
    ])

    /// Per-pad overrides from `gamepads.json` in the config folder, keyed by the device name
    /// EVIOCGNAME reports:
    ///
    /// ```json
    /// { "8BitDo SN30 Pro": { "a": "south", "b": "east", "x": "west", "y": "north", "rewind": "tl2" } }
    /// ```
    ///
    /// Buttons a pad's entry names are remapped; the rest keep the standard mapping. Entries named
    /// after an action (`rewind`, `pause-menu`, `slow-motion-hold`...: the key-map file's names)
    /// bind that action instead of the default one (`defaultActions`). A bad file
    /// is reported with its line and ignored (never rewritten).
    public static func overrides(fromFileText text: String) throws(KeyMapFileError) -> [String: GamepadMapping] {
        let pads = try KeyMapJSON.parseObject(text)
        var result: [String: GamepadMapping] = [:]
        for pad in pads {
            guard case .object(let entries) = pad.value.value else {
                throw KeyMapFileError(line: pad.line, message: "\"\(pad.key)\" must be an object { \"a\": \"east\", ... }")
            }
            var mapping = GamepadMapping.standard
            for entry in entries {
                let button = JoypadButton(name: entry.key)
                let action = InputAction(rawValue: entry.key)
                guard button != nil || action != nil else {
                    throw KeyMapFileError(line: entry.line, message: "\(pad.key): unknown RetroPad button or action \"\(entry.key)\"")
                }
                guard case .string(let name) = entry.value.value, let code = code(named: name) else {
                    throw KeyMapFileError(line: entry.line, message: "\(pad.key).\(entry.key): unknown pad button "
                        + "(use south, east, north, west, tl, tr, tl2, tr2, select, start, thumbl, thumbr, "
                        + "dpad_up..., trigger, thumb, top, base..., or a code like 0x130)")
                }
                if let button { mapping.bind(code: code, to: button) } else if let action { mapping.bind(code: code, to: action) }
            }
            result[pad.key] = mapping
        }
        return result
    }

    /// The `gamepads.json` text for `overrides` (each pad's buttons by RetroPad name, its actions by
    /// action name; evdev
    /// buttons by name where they have one, else as `0x…`). `overrides(fromFileText:)` reads it back.
    public static func fileText(for overrides: [String: GamepadMapping]) throws -> String {
        var pads: [String: [String: String]] = [:]
        for (pad, mapping) in overrides {
            var entries: [String: String] = [:]
            let name = { (code: UInt16) in codeNames.first { $0.code == code }?.name ?? "0x" + String(code, radix: 16) }
            // A code an action holds presses no button: leaving the button out keeps the file
            // reading back to the same mapping.
            for (code, button) in mapping.buttons where mapping.actions[code] == nil { entries[button.name] = name(code) }
            for (code, action) in mapping.actions { entries[action.rawValue] = name(code) }
            pads[pad] = entries
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(pads), as: UTF8.self) + "\n"
    }

    /// Loads `gamepads.json`; a missing file gives no overrides, a bad one a one-line problem.
    public static func loadOverrides(from file: URL) -> (overrides: [String: GamepadMapping], problem: String?) {
        guard FileManager.default.fileExists(atPath: file.path) else { return ([:], nil) }
        guard let data = try? Data(contentsOf: file), let text = String(data: data, encoding: .utf8) else {
            return ([:], "\(file.path): can't read as UTF-8 text; standard pad mapping used")
        }
        do {
            return (try overrides(fromFileText: text), nil)
        } catch {
            return ([:], "\(file.path):\(error.line): \(error.message); standard pad mapping used")
        }
    }
}
