internal import CXInput

/// X11 keysyms to Phosphor's keys, so the user's key map applies to XInput2 events unchanged.
/// The source looks up each key's unshifted keysym in the active layout (a German keyboard's
/// `z` key gives `z`, as the terminal would type it). Any thread (a pure table).
public enum X11Keysym {
    /// The key a keysym names, nil for keysyms no key map can bind.
    public static func key(for keysym: UInt32) -> Key? {
        if let named = named[keysym] { return named }
        switch keysym {
        case 0x41...0x5A:
            return .character(Unicode.Scalar(keysym + 0x20)!)  // XK_A...XK_Z: the key is lower case
        case 0x21...0x7E, 0xA0...0xFF:
            return Unicode.Scalar(keysym).map(Key.character)  // Latin-1 keysyms are their code points
        case 0x0100_0000...0x0110_FFFF:
            return Unicode.Scalar(keysym - 0x0100_0000).map { Key.forCharacter($0) }  // Unicode keysyms
        case UInt32(XK_F1)...UInt32(XK_F35):
            return .function(Int(keysym) - Int(XK_F1) + 1)
        case UInt32(XK_KP_0)...UInt32(XK_KP_9):
            return .keypad(Unicode.Scalar(UInt8(ascii: "0") + UInt8(keysym - UInt32(XK_KP_0))))
        default:
            return nil
        }
    }

    private static let named: [UInt32: Key] = {
        let pairs: [(Int32, Key)] = [
            (XK_space, .character(" ")),
            (XK_BackSpace, .backspace), (XK_Tab, .tab), (XK_ISO_Left_Tab, .tab), (XK_Return, .enter),
            (XK_Escape, .escape), (XK_Delete, .delete), (XK_Insert, .insert),
            (XK_Home, .home), (XK_End, .end), (XK_Prior, .pageUp), (XK_Next, .pageDown),
            (XK_Left, .left), (XK_Up, .up), (XK_Right, .right), (XK_Down, .down),
            (XK_Pause, .pause), (XK_Scroll_Lock, .scrollLock), (XK_Print, .printScreen), (XK_Menu, .menu),
            (XK_Num_Lock, .numLock), (XK_Caps_Lock, .capsLock),
            (XK_Shift_L, .leftShift), (XK_Shift_R, .rightShift),
            (XK_Control_L, .leftControl), (XK_Control_R, .rightControl),
            (XK_Alt_L, .leftAlt), (XK_Alt_R, .rightAlt), (XK_Meta_L, .leftAlt), (XK_Meta_R, .rightAlt),
            (XK_ISO_Level3_Shift, .rightAlt), (XK_Super_L, .leftSuper), (XK_Super_R, .rightSuper),
            (XK_KP_Enter, .keypadEnter),
            // Level 1 of the keypad's digit keys is their NumLock-off meaning: the key stays the digit.
            (XK_KP_Insert, .keypad("0")), (XK_KP_End, .keypad("1")), (XK_KP_Down, .keypad("2")),
            (XK_KP_Next, .keypad("3")), (XK_KP_Left, .keypad("4")), (XK_KP_Begin, .keypad("5")),
            (XK_KP_Right, .keypad("6")), (XK_KP_Home, .keypad("7")), (XK_KP_Up, .keypad("8")),
            (XK_KP_Prior, .keypad("9")), (XK_KP_Delete, .keypad(".")), (XK_KP_Decimal, .keypad(".")),
            (XK_KP_Divide, .keypad("/")), (XK_KP_Multiply, .keypad("*")), (XK_KP_Subtract, .keypad("-")),
            (XK_KP_Add, .keypad("+")), (XK_KP_Equal, .keypad("=")), (XK_KP_Separator, .keypad(",")),
        ]
        return Dictionary(pairs.map { (UInt32($0.0), $0.1) }, uniquingKeysWith: { first, _ in first })
    }()
}
