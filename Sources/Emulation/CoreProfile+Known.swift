extension CoreProfile {
    /// Every core Phosphor has facts about. The cheat figures and quirks were measured on the
    /// Debian 12 builds (README, "Cheat codes"; DESIGN.md, libretro facts); the ranks order the
    /// cores for each system by how well they run in a terminal.
    public static let known: [CoreProfile] = [
        // NES
        CoreProfile(name: "nestopia", displayName: "Nestopia", ranks: [.nes: 0],
                    // Copies the code into a 256-byte stack buffer and splits it on "+,;._ ".
                    maximumCheatCodeBytes: 255, cheatsMeasured: true,
                    quirks: [.appliesDisabledCheats, .acceptsForeignStates, .needsControllerDevice]),
        CoreProfile(name: "fceumm", displayName: "FCEUmm", ranks: [.nes: 1]),
        CoreProfile(name: "mesen", displayName: "Mesen", ranks: [.nes: 2]),

        // SNES
        CoreProfile(name: "snes9x", displayName: "Snes9x", ranks: [.snes: 0]),
        bsnesMercury("performance", "Performance", rank: 1),
        bsnesMercury("balanced", "Balanced", rank: 2),
        bsnesMercury("accuracy", "Accuracy", rank: 3),

        // Game Boy, Game Boy Color, Game Boy Advance
        CoreProfile(name: "gambatte", displayName: "Gambatte", ranks: [.gb: 0, .gbc: 0],
                    maximumCheatCodeBytes: 4095,
                    cheatNote: "GameShark codes apply only in games that use the VBlank interrupt",
                    cheatsMeasured: true, quirks: [.cheatResetForgetsPatches, .acceptsForeignStates]),
        CoreProfile(name: "sameboy", displayName: "SameBoy", ranks: [.gb: 1, .gbc: 1]),
        CoreProfile(name: "mgba", displayName: "mGBA", ranks: [.gb: 2, .gbc: 2, .gba: 0],
                    maximumCheatCodeBytes: 4095,
                    cheatNote: "a ROM-patch code (GameShark type 6) stays on until the game starts again",
                    cheatsMeasured: true, quirks: [.acceptsForeignStates]),
        CoreProfile(name: "vba_next", displayName: "VBA Next", ranks: [.gba: 1]),

        // Nintendo DS: the touch screen is read only with these options (DESIGN.md).
        CoreProfile(name: "desmume", displayName: "DeSmuME", ranks: [.nds: 0],
                    defaultOptions: ["desmume_pointer_mouse": "enable", "desmume_pointer_type": "touch"],
                    maximumCheatCodeBytes: 1023, cheatsMeasured: true,
                    quirks: [.acceptsForeignStates, .infoClaimsOpenGL]),
        CoreProfile(name: "melonds", displayName: "melonDS", ranks: [.nds: 1]),

        // Mega Drive / Genesis
        CoreProfile(name: "genesis_plus_gx", displayName: "Genesis Plus GX", ranks: [.genesis: 0]),
        CoreProfile(name: "picodrive", displayName: "PicoDrive", ranks: [.genesis: 1]),

        // PC Engine
        CoreProfile(name: "mednafen_pce_fast", displayName: "Beetle PCE Fast", ranks: [.pce: 0],
                    maximumCheatCodeBytes: 0, cheatsMeasured: true, quirks: [.cheatSetDoesNothing]),
        CoreProfile(name: "mednafen_pce", displayName: "Beetle PCE", ranks: [.pce: 1]),

        // Nintendo 64: OpenGL cores, rendered offscreen (HardwareRenderer). A terminal shows a few
        // hundred pixels across, so they render at the console's own 320x240 (their default,
        // 640x480, runs mupen64plus-next at 0.6-0.9x on Mesa's llvmpipe; 320x240 at 2-4x).
        CoreProfile(name: "mupen64plus_next", displayName: "Mupen64Plus-Next", ranks: [.n64: 0],
                    startingOptions: ["mupen64plus-43screensize": "320x240"]),
        CoreProfile(name: "parallel_n64", displayName: "ParaLLEl N64", ranks: [.n64: 1],
                    startingOptions: ["parallel-n64-screensize": "320x240"]),
    ]

    /// The three bsnes-mercury profiles share their facts: like nestopia, a 256-byte stack buffer
    /// for the code, split on "+,;._ ".
    private static func bsnesMercury(_ variant: String, _ shownVariant: String, rank: Int) -> CoreProfile {
        CoreProfile(name: "bsnes_mercury_\(variant)", displayName: "bsnes-mercury \(shownVariant)", ranks: [.snes: rank],
                    maximumCheatCodeBytes: 255, cheatsMeasured: true,
                    quirks: [.acceptsForeignStates, .crashesAfterForeignState])
    }
}
