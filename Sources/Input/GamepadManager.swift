internal import CEvdev
import Foundation
import PhosphorKit

/// Local gamepads through Linux evdev: real press/release, one pad per player in device order,
/// hot-plug by rescanning `/dev/input` every `rescanInterval`. Not focus-aware (evdev never is).
///
/// UI thread only: call `poll(now:)` once per display tick, then read `buttons(port:)`.
public final class GamepadManager {
    private struct Pad {
        var info: GamepadDeviceInfo
        var descriptor: Int32
        var state: GamepadState
        /// Set for a pad a test attached (`attach(_:)`): its events come from here, not evdev.
        var scripted: ScriptedGamepad?
    }

    public let directory: URL
    public var overrides: [String: GamepadMapping]
    public var rescanInterval: Duration
    /// The last pad button pressed (device name and evdev code), for the key-map editor's
    /// "press the new button". Cleared by `takeLastButtonPress()`.
    public private(set) var lastButtonPress: (pad: String, code: UInt16)?

    private var pads: [Pad] = []
    /// Paths probed and found not to be gamepads (re-probed when they disappear and come back).
    private var ignoredPaths: Set<String> = []
    private var lastScan: ContinuousClock.Instant?
    /// Set when event devices exist but none is readable; nil otherwise.
    public private(set) var notice: String?

    public init(directory: URL = URL(fileURLWithPath: "/dev/input"), overrides: [String: GamepadMapping] = [:],
                rescanInterval: Duration = .seconds(2)) {
        self.directory = directory
        self.overrides = overrides
        self.rescanInterval = rescanInterval
    }

    deinit {
        closeAll()
    }

    /// The console's buttons: the default actions (`GamepadMapping.defaultActions`) go only on pad
    /// buttons that press none of these. Set before the first `poll`; UI thread.
    public var usedButtons: Set<JoypadButton> = Set(JoypadButton.allCases) {
        didSet { for index in pads.indices { pads[index].state.mapping = mapping(forPad: pads[index].info.name) } }
    }

    /// The mapping a pad named `name` plays with: its override or the standard one, plus the
    /// default actions that fit.
    public func mapping(forPad name: String) -> GamepadMapping {
        (overrides[name] ?? .standard).addingDefaultActions(keeping: usedButtons)
    }

    /// Adds a pad whose events a test sends (the fake beside evdev); it takes the next port.
    public func attach(_ scripted: ScriptedGamepad) {
        let info = GamepadDeviceInfo(path: "scripted:\(scripted.name)", name: scripted.name, keyCodes: [],
                                     axes: scripted.axes)
        let state = GamepadState(mapping: mapping(forPad: scripted.name), axes: scripted.axes)
        pads.append(Pad(info: info, descriptor: -1, state: state, scripted: scripted))
    }

    /// The actions held on any pad, for `PlayerInput.gamepadActions`.
    public var actions: Set<InputAction> { pads.reduce(into: []) { $0.formUnion($1.state.actions) } }

    /// Names of the connected pads, by port.
    public var padNames: [String] { pads.map(\.info.name) }

    /// Rescans when due, then drains every pad's pending events.
    public func poll(now: ContinuousClock.Instant) {
        if lastScan.map({ now - $0 >= rescanInterval }) ?? true {
            lastScan = now
            rescan()
        }
        var index = 0
        while index < pads.count {
            if let scripted = pads[index].scripted {
                for event in scripted.takeEvents() { apply(event, to: &pads[index]) }
                index += 1
            } else if readEvents(&pads[index]) {
                index += 1
            } else {
                Log.info("gamepad removed: \(pads[index].info.name) (\(pads[index].info.path))")
                _ = cevdev_close(pads[index].descriptor)
                pads.remove(at: index)
            }
        }
    }

    /// The buttons the pad on `port` holds (empty when there is none).
    public func buttons(port: Int) -> ButtonMask {
        port < pads.count ? pads[port].state.buttons : []
    }

    /// One mask per connected pad, for `PlayerInput.gamepadButtons`.
    public var masks: [ButtonMask] {
        pads.map { pad in
            guard !leftStickAsDirections else { return pad.state.buttons }
            var state = pad.state
            state.mapping.leftStickAsDirections = false
            return state.buttons
        }
    }

    /// False for a console whose games read the left stick as a stick (the N64): it then stops
    /// pressing the d-pad, whatever the pad's mapping says. UI thread.
    public var leftStickAsDirections = true

    /// Each connected pad's two sticks (left, right), for `PlayerInput.gamepadSticks`.
    public var sticks: [[StickPosition]] { pads.map { pad in AnalogStick.allCases.map { pad.state.stick($0) } } }

    /// Returns and forgets the last button press.
    public func takeLastButtonPress() -> (pad: String, code: UInt16)? {
        defer { lastButtonPress = nil }
        return lastButtonPress
    }

    /// Makes `button` come from `code` on the pad named `name` (its other codes for that button
    /// are dropped), for connected pads at once and for pads plugged in later.
    public func bind(code: UInt16, to button: JoypadButton, onPad name: String) {
        var mapping = overrides[name] ?? .standard
        mapping.bind(code: code, to: button)
        setOverride(mapping, forPad: name)
    }

    /// Makes `code` on the pad named `name` carry out `action` (instead of any button), as `bind(code:to:onPad:)`.
    public func bind(code: UInt16, to action: InputAction, onPad name: String) {
        var mapping = overrides[name] ?? .standard
        mapping.bind(code: code, to: action)
        setOverride(mapping, forPad: name)
    }

    private func setOverride(_ mapping: GamepadMapping, forPad name: String) {
        overrides[name] = mapping
        for index in pads.indices where pads[index].info.name == name { pads[index].state.mapping = self.mapping(forPad: name) }
    }

    public func closeAll() {
        for pad in pads where pad.scripted == nil { _ = cevdev_close(pad.descriptor) }
        pads.removeAll()
    }

    private func rescan() {
        let paths = GamepadScanner.eventDevicePaths(in: directory)
        let present = Set(paths)
        ignoredPaths.formIntersection(present)
        let open = Set(pads.map(\.info.path))
        var unreadable = 0
        for path in paths where !open.contains(path) && !ignoredPaths.contains(path) {
            switch openPad(path) {
            case .opened(let pad):
                Log.info("gamepad connected: \(pad.info.name) (\(path))")
                pads.append(pad)
            case .denied:
                unreadable += 1
            case .notAGamepad:
                ignoredPaths.insert(path)
            }
        }
        let scan = GamepadScanner.ScanResult(gamepads: [], eventDeviceCount: paths.count, unreadableCount: unreadable)
        notice = pads.isEmpty ? scan.notice : nil
        pads.sort { $0.info.path.localizedStandardCompare($1.info.path) == .orderedAscending }
    }

    private enum OpenResult {
        case opened(Pad), denied, notAGamepad
    }

    private func openPad(_ path: String) -> OpenResult {
        let descriptor: Int32
        let info: GamepadDeviceInfo
        switch GamepadScanner.openDevice(at: path) {
        case .failed(.permissionDenied):
            return .denied
        case .failed:
            return .notAGamepad
        case .opened(let openedDescriptor, let openedInfo):
            guard openedInfo.isGamepad else {
                _ = cevdev_close(openedDescriptor)
                return .notAGamepad
            }
            (descriptor, info) = (openedDescriptor, openedInfo)
        }
        var state = GamepadState(mapping: mapping(forPad: info.name), axes: info.axes)
        state.resynchronize(pressed: currentKeys(descriptor), axisValues: [:])
        return .opened(Pad(info: info, descriptor: descriptor, state: state))
    }

    private func currentKeys(_ descriptor: Int32) -> Set<UInt16> {
        var bits = [UInt8](repeating: 0, count: Int(cevdev_key_bytes()))
        guard cevdev_key_state(descriptor, &bits, Int32(bits.count)) >= 0 else { return [] }
        return Set(GamepadScanner.setBits(bits))
    }

    private func apply(_ event: GamepadEvent, to pad: inout Pad) {
        if event.type == GamepadEvent.keyType, event.value == 1 { lastButtonPress = (pad.info.name, event.code) }
        pad.state.apply(event)
    }

    /// Drains a pad; false when the device is gone.
    private func readEvents(_ pad: inout Pad) -> Bool {
        var buffer = [cevdev_event](repeating: cevdev_event(), count: 64)
        while true {
            let count: Int32
            do {
                count = try systemCall("read(\(pad.info.path))") { cevdev_read(pad.descriptor, &buffer, 64) }
            } catch {
                return false  // ENODEV: unplugged
            }
            if count == 0 { return true }
            for raw in buffer.prefix(Int(count)) {
                if raw.type == GamepadEvent.syncType, raw.code == UInt16(SYN_DROPPED) {
                    // The kernel's buffer overflowed: ask for the real state instead of guessing.
                    var axisValues: [UInt16: Int32] = [:]
                    for code in pad.info.axes.keys {
                        var axis = cevdev_axis()
                        if cevdev_axis_info(pad.descriptor, Int32(code), &axis) == 0 { axisValues[code] = axis.value }
                    }
                    pad.state.resynchronize(pressed: currentKeys(pad.descriptor), axisValues: axisValues)
                    continue
                }
                apply(GamepadEvent(type: raw.type, code: raw.code, value: raw.value), to: &pad)
            }
            if count < 64 { return true }
        }
    }
}
