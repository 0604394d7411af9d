internal import CSystem

/// The tty's window size in pixels (TIOCGWINSZ's `ws_xpixel`, `ws_ypixel`); zero where the
/// terminal does not fill them in.
public func terminalPixelSize(of descriptor: Int32) throws -> (width: Int, height: Int) {
    var width: UInt16 = 0
    var height: UInt16 = 0
    try systemCall("ioctl(TIOCGWINSZ)") { csystem_window_pixels(descriptor, &width, &height) }
    return (Int(width), Int(height))
}
