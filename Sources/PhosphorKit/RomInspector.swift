import Foundation

/// What a ROM file is: its system, the title its header carries (if any), and how many leading
/// bytes are a copier header rather than ROM data (so checksums match headerless dumps).
public struct RomInfo: Sendable, Equatable {
    public var system: GameSystem
    /// Title from the internal header, already sanitized (printable ASCII, trimmed); nil when the
    /// system has no title in its header (NES, PC Engine) or the title is blank.
    public var title: String?
    /// Bytes at the start of the file that are a 512-byte copier header (SNES, PC Engine, SMD), else 0.
    public var copierHeaderSize: Int

    public init(system: GameSystem, title: String?, copierHeaderSize: Int = 0) {
        self.system = system
        self.title = title
        self.copierHeaderSize = copierHeaderSize
    }
}

/// Why a file is not a ROM Phosphor can use. `description` is one line and names the file.
public enum RomInspectionError: Error, Equatable, CustomStringConvertible {
    case emptyFile(file: String)
    case tooSmall(file: String, system: GameSystem, size: Int, needed: Int)
    case badHeader(file: String, system: GameSystem, reason: String)
    case unknownSystem(file: String)
    /// The header declares more than the file holds (a cut-short download or copy).
    case truncated(file: String, system: GameSystem, size: Int, needed: Int)

    public var description: String {
        switch self {
        case .emptyFile(let file):
            "\(DisplayText.sanitized(file)): empty file"
        case .tooSmall(let file, let system, let size, let needed):
            "\(DisplayText.sanitized(file)): too small for \(RomInspector.article(system)) "
                + "\(system.displayName) ROM "
                + "(\(size) bytes, needs at least \(needed))"
        case .badHeader(let file, let system, let reason):
            "\(DisplayText.sanitized(file)): not \(RomInspector.article(system)) "
                + "\(system.displayName) ROM: \(reason)"
        case .truncated(let file, let system, let size, let needed):
            "\(DisplayText.sanitized(file)): cut short: its \(system.displayName) header needs "
                + "\(needed) bytes but the file has \(size); copy or download it again"
        case .unknownSystem(let file):
            "\(DisplayText.sanitized(file)): unknown system (no known extension or header)"
        }
    }
}

/// Decides which console a ROM is for, from its extension and its header bytes.
///
/// A known extension picks the system and its header is checked (leniently: homebrew often
/// leaves checksums unfixed). A file whose bytes clearly belong to another system is reported
/// as that system. Unknown extensions (`.bin`, `.rom`, none) are sniffed with strict checks only.
/// Pure functions on bytes: any thread.
public enum RomInspector {
    /// Callers need pass no more than this many leading bytes (a HiROM SNES header behind a
    /// 512-byte copier header ends at 0x10200).
    public static let headerBytesNeeded = 0x10200

    /// Inspects a ROM. `bytes` is the start of the file (at least `headerBytesNeeded` bytes
    /// when the file is that large); `fileSize` is the whole file's size.
    public static func inspect(fileName: String, bytes: some Collection<UInt8>, fileSize: Int) throws -> RomInfo {
        let rom = Array(bytes.prefix(headerBytesNeeded))
        guard fileSize > 0, !rom.isEmpty else { throw RomInspectionError.emptyFile(file: fileName) }
        let view = HeaderView(bytes: rom, fileSize: fileSize)
        let fileExtension = extensionOf(fileName)

        if let expected = GameSystem.guess(fromExtension: fileExtension) {
            switch check(expected, fileExtension: fileExtension, view: view, fileName: fileName) {
            case .success(let info):
                return info
            case .failure(let error):
                // A misnamed file that clearly belongs to another system is that system.
                if let sniffed = sniff(view), sniffed.system != expected,
                   !(expected == .gb && sniffed.system == .gbc) {
                    return sniffed
                }
                throw error
            }
        }
        if let sniffed = sniff(view) { return sniffed }
        throw RomInspectionError.unknownSystem(file: fileName)
    }

    /// Inspects a file on disk, reading only its first `headerBytesNeeded` bytes.
    /// Read failures are thrown as `SystemError` naming the file.
    public static func inspect(file: URL) throws -> RomInfo {
        let descriptor = try openFile(file.path, flags: O_RDONLY)
        defer { close(descriptor) }   // read-only: nothing to lose if close fails; never retried (Linux)
        var status = stat()
        try systemCall("fstat(\(file.lastPathComponent))") { fstat(descriptor, &status) }
        var head = [UInt8](repeating: 0, count: headerBytesNeeded)
        var filled = 0
        while filled < head.count {
            let count = try head.withUnsafeMutableBytes { buffer in
                try systemCall("read(\(file.lastPathComponent))") {
                    read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                }
            }
            if count == 0 { break }
            filled += count
        }
        return try inspect(fileName: file.lastPathComponent, bytes: head.prefix(filled), fileSize: Int(status.st_size))
    }

    /// A title from fixed-width header bytes: stops at the first NUL, keeps printable ASCII,
    /// turns everything else (Shift-JIS, control bytes) into spaces, collapses runs of spaces.
    /// Nil when fewer than two letters or digits are left: homebrew often fills the field with
    /// junk like "." or "-", and the file name (the caller's fallback) then says more.
    public static func headerTitle(_ bytes: some Collection<UInt8>) -> String? {
        var text = ""
        var pendingSpace = false
        for byte in bytes {
            if byte == 0 { break }
            if byte > 0x20 && byte < 0x7F {
                if pendingSpace && !text.isEmpty { text.append(" ") }
                pendingSpace = false
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                pendingSpace = true
            }
        }
        return text.filter { $0.isLetter || $0.isNumber }.count < 2 ? nil : text
    }

    static func article(_ system: GameSystem) -> String {
        switch system {
        case .nes, .snes: "an"   // "an NES ROM", "an SNES ROM"
        default: "a"
        }
    }

    static func extensionOf(_ fileName: String) -> String {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return "" }
        return String(base[base.index(after: dot)...]).lowercased()
    }

    // MARK: - Per-system checks

    /// Checks the header of the system an extension names. Lenient: one of two independent
    /// signs (e.g. logo or checksum) is enough, since homebrew often leaves checksums unfixed.
    static func check(_ system: GameSystem, fileExtension: String, view: HeaderView,
                      fileName: String) -> Result<RomInfo, RomInspectionError> {
        func tooSmall(_ needed: Int) -> Result<RomInfo, RomInspectionError> {
            .failure(.tooSmall(file: fileName, system: system, size: view.fileSize, needed: needed))
        }
        func truncated(_ needed: Int) -> Result<RomInfo, RomInspectionError> {
            .failure(.truncated(file: fileName, system: system, size: view.fileSize, needed: needed))
        }
        func bad(_ reason: String) -> Result<RomInfo, RomInspectionError> {
            .failure(.badHeader(file: fileName, system: system, reason: reason))
        }
        switch system {
        case .nes:
            if fileExtension == "fds" {
                if view.hasPrefix("FDS\u{1A}") || view.matches("*NINTENDO-HVC*", at: 1) {
                    return .success(RomInfo(system: .nes, title: nil))
                }
                return bad("no fwNES or disk header")
            }
            if fileExtension == "unf" || fileExtension == "unif" {
                return view.hasPrefix("UNIF") ? .success(RomInfo(system: .nes, title: nil)) : bad("no UNIF header")
            }
            guard view.fileSize >= 16 else { return tooSmall(16) }
            guard view.hasPrefix("NES\u{1A}") else { return bad("no iNES header") }
            if let needed = view.nesDeclaredMinimumSize, view.fileSize < needed { return tooSmall(needed) }
            return .success(RomInfo(system: .nes, title: nil))
        case .gb, .gbc:
            guard view.fileSize >= 0x150, view.count >= 0x150 else { return tooSmall(0x150) }
            guard view.hasGameBoyLogo || view.gameBoyHeaderChecksumMatches else {
                return bad("no Nintendo logo at 0x104 and bad header checksum")
            }
            return .success(view.gameBoyInfo)
        case .gba:
            guard view.fileSize >= 0xC0, view.count >= 0xC0 else { return tooSmall(0xC0) }
            // The BIOS refuses a cartridge whose complement is wrong, so every dump that ever ran
            // on hardware (and every gbafix'd homebrew) has it right; 0x96 alone is no proof.
            guard view.gbaComplementMatches else {
                return bad(view[0xB2] == 0x96 ? "bad header checksum at 0xBD (the file is damaged)"
                                              : "no fixed 0x96 at 0xB2 and bad header complement")
            }
            if let needed = view.gbaMinimumSize, view.fileSize < needed { return truncated(needed) }
            return .success(view.gbaInfo)
        case .nds:
            guard view.fileSize >= 0x200, view.count >= 0x160 else { return tooSmall(0x200) }
            guard view.ndsHeaderCRCMatches else { return bad("header CRC16 at 0x15E does not match") }
            guard view.ndsHasARM9Code else { return bad("the header names no ARM9 code") }
            if view.fileSize < view.ndsMinimumSize { return truncated(view.ndsMinimumSize) }
            return .success(view.ndsInfo)
        case .snes:
            guard view.fileSize >= 0x8000 else { return tooSmall(0x8000) }
            guard let info = view.snesInfo(strict: false) else { return bad("no valid LoROM or HiROM header") }
            return .success(info)
        case .genesis:
            guard view.fileSize >= 0x200, view.count >= 0x200 else { return tooSmall(0x200) }
            guard let info = view.genesisInfo else { return bad("no SEGA signature at 0x100") }
            return .success(info)
        case .pce:
            // HuCards have no header; a 512-byte copier header shows as size % 8192 == 512.
            let copier = view.fileSize % 8192 == 512 ? 512 : 0
            guard view.fileSize - copier >= 8192 else { return tooSmall(8192 + copier) }
            return .success(RomInfo(system: .pce, title: nil, copierHeaderSize: copier))
        case .n64:
            guard view.fileSize >= HeaderView.n64MinimumSize else { return tooSmall(HeaderView.n64MinimumSize) }
            guard let info = view.n64Info else {
                return bad("no 80 37 12 40 header word in any byte order (.z64, .v64 or .n64)")
            }
            return .success(info)
        }
    }

    /// Strict signatures only, for files whose extension says nothing.
    static func sniff(_ view: HeaderView) -> RomInfo? {
        if view.fileSize >= 16, view.hasPrefix("NES\u{1A}") { return RomInfo(system: .nes, title: nil) }
        if view.count >= 0xC0, view[0xB2] == 0x96, view.gbaComplementMatches,
           view.fileSize >= view.gbaMinimumSize ?? 0 {
            return view.gbaInfo
        }
        if view.count >= 0x150, view.hasGameBoyLogo { return view.gameBoyInfo }
        if view.count >= 0x160, view.fileSize >= 0x200, view.ndsHeaderCRCMatches,
           view.bytes[0..<0x15E].contains(where: { $0 != 0 }), view.ndsHasARM9Code,
           view.fileSize >= view.ndsMinimumSize {
            return view.ndsInfo
        }
        if view.count >= 0x200, let info = view.genesisInfo { return info }
        if view.fileSize >= HeaderView.n64MinimumSize, let info = view.n64Info { return info }
        if view.fileSize >= 0x8000, let info = view.snesInfo(strict: true) { return info }
        return nil
    }
}

/// Bounds-checked reads over the first bytes of a ROM. Out-of-range reads give 0 rather than
/// trapping, so a truncated file can only fail a check, never crash.
struct HeaderView {
    let bytes: [UInt8]
    let fileSize: Int

    var count: Int { bytes.count }

    subscript(offset: Int) -> UInt8 { offset >= 0 && offset < bytes.count ? bytes[offset] : 0 }

    func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8> {
        let start = min(max(offset, 0), bytes.count)
        let end = min(start + length, bytes.count)
        return bytes[start..<end]
    }

    func littleEndian16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }

    func hasPrefix(_ ascii: String) -> Bool { matches(ascii, at: 0) }

    func matches(_ ascii: String, at offset: Int) -> Bool {
        let expected = Array(ascii.utf8)
        return offset + expected.count <= bytes.count && Array(slice(offset, expected.count)) == expected
    }

    // MARK: NES

    /// Header + trainer + PRG ROM as the iNES / NES 2.0 header declares them (CHR may be RAM, so
    /// it is not counted). Nil when NES 2.0 uses its exponent notation for the PRG size.
    var nesDeclaredMinimumSize: Int? {
        let isNES2 = self[7] & 0x0C == 0x08
        let highNibble = isNES2 ? Int(self[9] & 0x0F) : 0
        if highNibble == 0x0F { return nil }
        let prgBanks = Int(self[4]) | highNibble << 8
        let trainer = self[6] & 0x04 != 0 ? 512 : 0
        return 16 + trainer + prgBanks * 16384
    }

    // MARK: Game Boy

    /// The 48-byte logo every licensed (and rgbfix'd homebrew) cartridge has at 0x104.
    static let gameBoyLogo: [UInt8] = [
        0xCE, 0xED, 0x66, 0x66, 0xCC, 0x0D, 0x00, 0x0B, 0x03, 0x73, 0x00, 0x83, 0x00, 0x0C, 0x00, 0x0D,
        0x00, 0x08, 0x11, 0x1F, 0x88, 0x89, 0x00, 0x0E, 0xDC, 0xCC, 0x6E, 0xE6, 0xDD, 0xDD, 0xD9, 0x99,
        0xBB, 0xBB, 0x67, 0x63, 0x6E, 0x0E, 0xEC, 0xCC, 0xDD, 0xDC, 0x99, 0x9F, 0xBB, 0xB9, 0x33, 0x3E,
    ]

    var hasGameBoyLogo: Bool { Array(slice(0x104, 48)) == Self.gameBoyLogo }

    /// Header checksum at 0x14D: x = x - byte - 1 over 0x134...0x14C.
    var gameBoyHeaderChecksumMatches: Bool {
        var sum: UInt8 = 0
        for offset in 0x134...0x14C { sum = sum &- self[offset] &- 1 }
        return sum == self[0x14D]
    }

    var gameBoyInfo: RomInfo {
        // CGB flag 0x80 (enhanced) or 0xC0 (CGB only) makes it a Color game; the title then has 15 bytes.
        let cgbFlag = self[0x143]
        let isColor = cgbFlag == 0x80 || cgbFlag == 0xC0
        let title = RomInspector.headerTitle(slice(0x134, isColor ? 15 : 16))
        return RomInfo(system: isColor ? .gbc : .gb, title: title)
    }

    // MARK: Game Boy Advance

    /// Complement at 0xBD: -(sum of 0xA0...0xBC) - 0x19.
    var gbaComplementMatches: Bool {
        var sum: UInt8 = 0
        for offset in 0xA0...0xBC { sum = sum &- self[offset] }
        return sum &- 0x19 == self[0xBD]
    }

    var gbaInfo: RomInfo { RomInfo(system: .gba, title: RomInspector.headerTitle(slice(0xA0, 12))) }

    // MARK: Nintendo DS

    /// CRC-16 (poly 0xA001 reflected, init 0xFFFF) over 0x000...0x15D, stored at 0x15E.
    var ndsHeaderCRCMatches: Bool {
        guard count >= 0x160 else { return false }
        return HeaderView.crc16(slice(0, 0x15E)) == littleEndian16(0x15E)
    }

    static func crc16(_ data: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in data {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    var ndsInfo: RomInfo { RomInfo(system: .nds, title: RomInspector.headerTitle(slice(0, 12))) }

    // MARK: Genesis / Mega Drive

    var genesisInfo: RomInfo? {
        if let info = Self.genesisInfo(in: self, copierHeaderSize: 0) { return info }
        // .smd: 512-byte header, then 16 KiB blocks with odd bytes first and even bytes second.
        guard fileSize % 16384 == 512, self[8] == 0xAA, self[9] == 0xBB, count >= 0x200 + 0x4000 else { return nil }
        let block = slice(0x200, 0x4000)
        var plain = [UInt8](repeating: 0, count: 0x4000)
        for index in 0..<0x2000 {
            plain[index * 2 + 1] = block[block.startIndex + index]
            plain[index * 2] = block[block.startIndex + 0x2000 + index]
        }
        return Self.genesisInfo(in: HeaderView(bytes: plain, fileSize: fileSize - 512), copierHeaderSize: 512)
    }

    private static func genesisInfo(in view: HeaderView, copierHeaderSize: Int) -> RomInfo? {
        guard view.matches("SEGA", at: 0x100) || view.matches("SEGA", at: 0x101) else { return nil }
        // Overseas title (0x150) reads best in the West; fall back to the domestic one (0x120).
        let title = RomInspector.headerTitle(view.slice(0x150, 48)) ?? RomInspector.headerTitle(view.slice(0x120, 48))
        return RomInfo(system: .genesis, title: title, copierHeaderSize: copierHeaderSize)
    }

    // MARK: SNES

    /// Tries LoROM (0x7FC0) and HiROM (0xFFC0), behind a copier header when the size says so
    /// (size % 1024 == 512) and otherwise without; keeps the best-scoring candidate.
    /// Strict mode (sniffing) needs checksum + complement == 0xFFFF and a map mode that fits.
    func snesInfo(strict: Bool) -> RomInfo? {
        let copierFirst = fileSize % 1024 == 512
        let copierSizes = copierFirst ? [512, 0] : [0, 512]
        var best: (score: Int, info: RomInfo)?
        for copier in copierSizes {
            for (base, isHiROM) in [(0x7FC0, false), (0xFFC0, true)] {
                let offset = copier + base
                guard offset + 0x40 <= count else { continue }
                let mapMode = self[offset + 0x15]
                let checksumPair = littleEndian16(offset + 0x1C) &+ littleEndian16(offset + 0x1E) == 0xFFFF
                let mapModeFits = mapMode & 0xE0 == 0x20 && (mapMode & 0x01 == 1) == isHiROM
                let titleBytes = slice(offset, 21)
                let titlePrintable = titleBytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                let resetVector = littleEndian16(offset + 0x3C)
                if strict && !(checksumPair && mapModeFits) { continue }
                if !strict && !(checksumPair || (mapModeFits && titlePrintable)) { continue }
                var score = 0
                if checksumPair { score += 4 }
                if mapModeFits { score += 2 }
                if titlePrintable { score += 1 }
                if resetVector >= 0x8000 { score += 1 }
                if copier == copierSizes[0] { score += 1 }
                let info = RomInfo(system: .snes, title: RomInspector.headerTitle(titleBytes),
                                   copierHeaderSize: copier)
                if best == nil || score > best!.score { best = (score, info) }
            }
        }
        return best?.info
    }
}
