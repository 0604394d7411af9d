import PhosphorKit

/// Tells the console from a file's extension and header (until the library's RomInspector lands).
enum SystemSniffer {
    static func system(fileName: String, head: [UInt8], size: Int) throws -> GameSystem? {
        let fileExtension = fileName.split(separator: ".").last.map(String.init)?.lowercased() ?? ""
        let guess = GameSystem.guess(fromExtension: fileExtension)
        switch guess {
        case .nes:
            guard head.starts(with: [0x4E, 0x45, 0x53, 0x1A]) else {
                throw RomCheck.Failure(description: "\(fileName): not an NES ROM (no iNES header)")
            }
            return .nes
        case .gb, .gbc:
            guard head.count > 0x150 else {
                throw RomCheck.Failure(description: "\(fileName): too small for a Game Boy ROM")
            }
            return head[0x143] & 0x80 != 0 ? .gbc : .gb
        default:
            return guess
        }
    }
}
