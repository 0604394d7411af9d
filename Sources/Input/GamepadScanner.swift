internal import CEvdev
import Foundation
import PhosphorKit

/// What an event device says it can do.
public struct GamepadDeviceInfo: Sendable, Equatable {
    public var path: String
    public var name: String
    public var keyCodes: Set<UInt16>
    public var axes: [UInt16: AxisRange]

    public init(path: String, name: String, keyCodes: Set<UInt16>, axes: [UInt16: AxisRange]) {
        self.path = path
        self.name = name
        self.keyCodes = keyCodes
        self.axes = axes
    }

    /// A gamepad has gamepad buttons (BTN_SOUTH...BTN_THUMBR, the BTN_GAMEPAD range), or joystick
    /// buttons with X/Y axes. Touchpads and tablets (BTN_TOUCH, BTN_TOOL_FINGER) and keyboards are not.
    public var isGamepad: Bool {
        if keyCodes.contains(EvdevCode.touch) || keyCodes.contains(EvdevCode.toolFinger) { return false }
        if keyCodes.contains(where: { (EvdevCode.south...EvdevCode.rightThumb).contains($0) }) { return true }
        let hasJoystickButtons = keyCodes.contains { (EvdevCode.joystickFirst..<EvdevCode.joystickFirst + 16).contains($0) }
        return hasJoystickButtons && axes[EvdevCode.axisX] != nil && axes[EvdevCode.axisY] != nil
    }
}

/// Finds event devices. The probing is injectable so the listing and the permission notice can
/// be tested without real devices. Any thread.
public enum GamepadScanner {
    public enum ProbeResult: Sendable, Equatable {
        case device(GamepadDeviceInfo)
        /// Not an input device (a plain file) or it vanished.
        case notADevice
        /// EACCES/EPERM: the user is not in the `input` group.
        case permissionDenied
    }

    public struct ScanResult: Sendable, Equatable {
        public var gamepads: [GamepadDeviceInfo]
        public var eventDeviceCount: Int
        public var unreadableCount: Int

        /// One line for the status bar when event devices exist but none can be read.
        public var notice: String? {
            guard eventDeviceCount > 0, unreadableCount == eventDeviceCount else { return nil }
            return "Gamepads: no permission to read /dev/input/event* (join the 'input' group: "
                + "sudo usermod -aG input $USER, then log in again)"
        }
    }

    /// `event*` entries of `directory`, in numeric order (event2 before event10).
    public static func eventDevicePaths(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("event"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, directory.appendingPathComponent(name).path)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    public static func scan(directory: URL,
                            probe: (String) -> ProbeResult = { probeDevice(at: $0) }) -> ScanResult {
        let paths = eventDevicePaths(in: directory)
        var result = ScanResult(gamepads: [], eventDeviceCount: paths.count, unreadableCount: 0)
        for path in paths {
            switch probe(path) {
            case .device(let info) where info.isGamepad: result.gamepads.append(info)
            case .permissionDenied: result.unreadableCount += 1
            case .device, .notADevice: break
            }
        }
        return result
    }

    /// Opens, queries and closes one device.
    public static func probeDevice(at path: String) -> ProbeResult {
        switch openDevice(at: path) {
        case .opened(let descriptor, let info):
            _ = cevdev_close(descriptor)
            return .device(info)
        case .failed(let result):
            return result
        }
    }

    enum OpenOutcome {
        /// The caller owns the descriptor and must close it.
        case opened(descriptor: Int32, info: GamepadDeviceInfo)
        case failed(ProbeResult)
    }

    /// Opens a device (non-blocking) and reads its description.
    static func openDevice(at path: String) -> OpenOutcome {
        let descriptor: Int32
        do {
            descriptor = try systemCall("open(\(path))") { cevdev_open(path) }
        } catch let error as SystemError where error.code == EACCES || error.code == EPERM {
            return .failed(.permissionDenied)
        } catch {
            return .failed(.notADevice)
        }
        guard let info = try? query(descriptor: descriptor, path: path) else {
            _ = cevdev_close(descriptor)
            return .failed(.notADevice)
        }
        return .opened(descriptor: descriptor, info: info)
    }

    /// Name, buttons and axes of an open device; throws for something that is not an evdev device.
    static func query(descriptor: Int32, path: String) throws -> GamepadDeviceInfo {
        var nameBuffer = [CChar](repeating: 0, count: 256)
        try systemCall("ioctl(EVIOCGNAME)") { cevdev_name(descriptor, &nameBuffer, Int32(nameBuffer.count)) }
        var keyBits = [UInt8](repeating: 0, count: Int(cevdev_key_bytes()))
        try systemCall("ioctl(EVIOCGBIT EV_KEY)") { cevdev_key_bits(descriptor, &keyBits, Int32(keyBits.count)) }
        var absBits = [UInt8](repeating: 0, count: Int(cevdev_abs_bytes()))
        try systemCall("ioctl(EVIOCGBIT EV_ABS)") { cevdev_abs_bits(descriptor, &absBits, Int32(absBits.count)) }
        var axes: [UInt16: AxisRange] = [:]
        for code in setBits(absBits) {
            var axis = cevdev_axis()
            if (try? systemCall("ioctl(EVIOCGABS)") { cevdev_axis_info(descriptor, Int32(code), &axis) }) != nil {
                axes[code] = AxisRange(minimum: axis.minimum, maximum: axis.maximum, restValue: axis.value)
            }
        }
        return GamepadDeviceInfo(path: path, name: string(fromCBuffer: nameBuffer),
                                 keyCodes: Set(setBits(keyBits)), axes: axes)
    }

    /// The indices of the set bits of a kernel bit array.
    static func setBits(_ bits: [UInt8]) -> [UInt16] {
        var codes: [UInt16] = []
        for (index, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { codes.append(UInt16(index * 8 + bit)) }
        }
        return codes
    }
}
