import Foundation
import PhosphorKit

/// Which evdev button code presses which RetroPad button. The default follows the RetroPad
/// convention by position: south = B, east = A, west = Y, north = X, shoulders L/R, triggers L2/R2.
public struct GamepadMapping: Sendable, Equatable {
    public var buttons: [UInt16: JoypadButton]
    public var leftStickAsDirections: Bool

    public init(buttons: [UInt16: JoypadButton], leftStickAsDirections: Bool = true) {
        self.buttons = buttons
        self.leftStickAsDirections = leftStickAsDirections
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
    /// { "8BitDo SN30 Pro": { "a": "south", "b": "east", "x": "west", "y": "north" } }
    /// ```
    ///
    /// Buttons a pad's entry names are remapped; the rest keep the standard mapping. A bad file
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
                guard let button = JoypadButton(name: entry.key) else {
                    throw KeyMapFileError(line: entry.line, message: "\(pad.key): unknown RetroPad button \"\(entry.key)\"")
                }
                guard case .string(let name) = entry.value.value, let code = code(named: name) else {
                    throw KeyMapFileError(line: entry.line, message: "\(pad.key).\(entry.key): unknown pad button "
                        + "(use south, east, north, west, tl, tr, tl2, tr2, select, start, thumbl, thumbr, "
                        + "dpad_up..., trigger, thumb, top, base..., or a code like 0x130)")
                }
                mapping.buttons = mapping.buttons.filter { $0.value != button }
                mapping.buttons[code] = button
            }
            result[pad.key] = mapping
        }
        return result
    }

    /// The `gamepads.json` text for `overrides` (each pad's buttons by RetroPad name; evdev
    /// buttons by name where they have one, else as `0x…`). `overrides(fromFileText:)` reads it back.
    public static func fileText(for overrides: [String: GamepadMapping]) throws -> String {
        var pads: [String: [String: String]] = [:]
        for (pad, mapping) in overrides {
            var entries: [String: String] = [:]
            for (code, button) in mapping.buttons {
                entries[button.name] = codeNames.first { $0.code == code }?.name ?? "0x" + String(code, radix: 16)
            }
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
