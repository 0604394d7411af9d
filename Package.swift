// swift-tools-version:6.0
// Phosphor: a terminal-native libretro frontend.
//
// Module layers (imports only point downwards; each target lists exactly what its files import):
//   C shims (CLibretro, CCurses, CAlsa, CSampleRate, CSQLite, CArchive, CLzma, CPng, CZlib, CLz4, CZstd,
//                 CSystem, CEvdev, CXInput, CEGL)
//                 the only code that sees C headers; Swift modules take them with `internal import`
//   PhosphorKit   shared vocabulary: PixelFormat, PixelRect, CellRect, buttons, rings, mailbox,
//                 display text, atomic files, paths, errors
//   Render        pixels to half-block cells (imports PhosphorKit for the vocabulary only)
//   Emulation     the core protocol (EmulatorCore) with the libretro host and a scripted core
//                 behind it, core profiles, the core thread
//   Audio, Input, Library
//   Terminal      the terminal seam: TerminalSession (tty) and HeadlessTerminal (tests), ncurses
//                 windows, start-up negotiation; the only Swift module that sees CCurses
//   Shell         the app loop, the game session, screens and run modes; no C
//   phosphor      main.swift: arguments and wiring
import PackageDescription

let package = Package(
    name: "Phosphor",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "phosphor", targets: ["phosphor"]),
    ],
    targets: [
        // MARK: C shims: the only code that sees C headers.
        .target(name: "CLibretro", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CCurses", linkerSettings: [.linkedLibrary("ncursesw")]),
        .target(name: "CAlsa", linkerSettings: [.linkedLibrary("asound")]),
        .target(name: "CSampleRate", linkerSettings: [.linkedLibrary("samplerate")]),
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CArchive", linkerSettings: [.linkedLibrary("archive")]),
        .target(name: "CPng", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "CLz4", linkerSettings: [.linkedLibrary("lz4")]),
        .target(name: "CZstd", linkerSettings: [.linkedLibrary("zstd")]),
        // A 7z archive's packed header (LZMA/LZMA2), read without libarchive.
        .target(name: "CLzma", linkerSettings: [.linkedLibrary("lzma")]),
        .target(name: "CSystem"),
        .target(name: "CEvdev"),
        // XInput2 raw key events and XKB repeat (key release on an X11 desktop). Linking is fine
        // without an X server: only connecting needs one, and that fails gracefully.
        .target(name: "CXInput", linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xi")]),
        // libEGL is dlopen'ed at run time (Phosphor starts without it); GL comes from eglGetProcAddress.
        .target(name: "CEGL", linkerSettings: [.linkedLibrary("dl")]),

        // MARK: Swift modules.
        .target(name: "PhosphorKit", dependencies: ["CPng", "CSystem", "CZlib"]),
        .target(name: "Render", dependencies: ["PhosphorKit"]),
        .target(name: "Emulation", dependencies: ["PhosphorKit", "CLibretro", "CEGL", "CLz4", "CZstd"]),
        .target(name: "Audio", dependencies: ["PhosphorKit", "CAlsa", "CSampleRate"]),
        .target(name: "Input", dependencies: ["PhosphorKit", "CEvdev", "CXInput"]),
        .target(name: "Library", dependencies: ["PhosphorKit", "CSQLite", "CArchive", "CLzma", "CSystem"]),
        .target(name: "Terminal", dependencies: ["PhosphorKit", "Input", "CCurses", "CSystem"]),
        .target(name: "Shell", dependencies: [
            "PhosphorKit", "Render", "Emulation", "Audio", "Input", "Library", "Terminal",
        ]),
        .executableTarget(name: "phosphor", dependencies: ["Shell"]),
        // Benchmarks (`make bench`): Render against chafa, and the audio output's underruns.
        .executableTarget(name: "phosphor-bench", dependencies: ["Render", "PhosphorKit"]),
        // Rewind and run-ahead on the real cores and test cartridges (bytes, CPU, seconds in 64 MB).
        .executableTarget(name: "RewindBench", dependencies: ["Emulation", "PhosphorKit"], path: "Bench/rewind",
                          exclude: ["run.sh"]),
        .executableTarget(name: "AudioBench", dependencies: ["Audio", "PhosphorKit"], path: "Bench/audio",
                          exclude: ["run.sh", "cartridges.sh"]),
        // The OpenGL read-back: the GL test core headless with and without it.
        .executableTarget(name: "GLBench", dependencies: ["Emulation", "PhosphorKit"], path: "Bench/gl",
                          exclude: ["run.sh"]),

        // MARK: Tests.
        .testTarget(name: "PhosphorKitTests", dependencies: ["PhosphorKit", "TestSupport"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "PhosphorKit", "TestSupport"]),
        .testTarget(name: "EmulationTests", dependencies: ["Emulation", "PhosphorKit", "TestSupport"]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "PhosphorKit"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "PhosphorKit", "Terminal", "TestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "PhosphorKit", "TestSupport"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "Input", "TestSupport"]),
        .testTarget(name: "ShellTests", dependencies: [
            "Shell", "Terminal", "Emulation", "Input", "Library", "PhosphorKit", "TestSupport",
        ]),
        // What the end-to-end and reliability tests share (a posix_spawn command runner, tmux,
        // the screen model).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"], exclude: ["Support/kitty_pty.py", "Support/real_terminal.py"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["Shell", "Emulation", "Input", "PhosphorKit", "TestSupport"]),
        // Writes a file with AtomicFile.write in a loop so ReliabilityTests can SIGKILL it mid-write.
        .executableTarget(name: "AtomicWriteProbe", dependencies: ["PhosphorKit"], path: "Tests/Probes/AtomicWriteProbe"),
        // Saves into one state slot with StateStore in a loop so ReliabilityTests can SIGKILL it mid-save.
        .executableTarget(name: "StateSlotProbe", dependencies: ["Shell", "PhosphorKit"], path: "Tests/Probes/StateSlotProbe"),
    ],
    swiftLanguageModes: [.v6]
)
