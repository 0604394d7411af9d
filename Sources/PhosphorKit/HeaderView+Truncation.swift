/// Size checks that tell a whole GBA or DS dump from one that was cut short. A truncated file
/// passes the header checks (the header is the first thing a download or a copy writes) and the
/// core then runs into missing code: it crawls or hangs while flooding the log, so the file is
/// refused before a core sees it. Pure functions on the header bytes: any thread.
extension HeaderView {
    // MARK: Game Boy Advance

    /// Licensed cartridges carry a two-character maker code at 0xB0 ("01" is Nintendo); homebrew
    /// leaves it "00" or blank. The smallest GBA mask ROM is 1 Mbit, and even a trimmed dump (the
    /// trailing 0xFF padding cut off) of a licensed game is not smaller than that.
    static let gbaLicensedMinimumSize = 128 * 1024

    var gbaHasLicensedMakerCode: Bool {
        let maker = [self[0xB0], self[0xB1]]
        let alphanumeric = maker.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
        return alphanumeric && maker != [0x30, 0x30]
    }

    /// Where the entry point's ARM branch (`B`, condition "always", at 0x00) goes, when it is one.
    /// The code it jumps to must be inside the file.
    var gbaEntryTarget: Int? {
        guard self[3] == 0xEA else { return nil }
        let field = Int32(self[0]) | Int32(self[1]) << 8 | Int32(self[2]) << 16
        let signed = (field << 8) >> 8   // sign-extend the 24-bit word offset
        return 8 + Int(signed) * 4
    }

    /// The smallest size the header allows, or nil when nothing says more than the header itself.
    var gbaMinimumSize: Int? {
        var needed = 0xC0
        if let target = gbaEntryTarget, target >= 0 { needed = max(needed, target + 4) }
        if gbaHasLicensedMakerCode { needed = max(needed, Self.gbaLicensedMinimumSize) }
        return needed > 0xC0 ? needed : nil
    }

    // MARK: Nintendo DS

    func littleEndian32(_ offset: Int) -> Int {
        Int(self[offset]) | Int(self[offset + 1]) << 8 | Int(self[offset + 2]) << 16 | Int(self[offset + 3]) << 24
    }

    /// The ARM9 and ARM7 binaries (offset 0x20/0x30, size 0x2C/0x3C) and the "total used ROM
    /// size" at 0x80 must all lie inside the file. Trimmers cut a dump to exactly that used size,
    /// so a trimmed dump still passes.
    var ndsMinimumSize: Int {
        let arm9End = littleEndian32(0x20) + littleEndian32(0x2C)
        let arm7End = littleEndian32(0x30) + littleEndian32(0x3C)
        return max(0x200, arm9End, arm7End, littleEndian32(0x80))
    }

    /// No ARM9 code at all: nothing for the core to run.
    var ndsHasARM9Code: Bool { littleEndian32(0x2C) > 0 }
}
