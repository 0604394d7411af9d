import Foundation
import XCTest
import PhosphorKit
@testable import Shell

final class SkinTests: XCTestCase {
    /// The checkout's `Skins/` folder, found from this source file's path.
    private var repositorySkins: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Skins")
    }

    private let sizes = [(80, 24), (200, 60), (41, 13), (30, 12), (24, 11), (25, 13), (10, 5), (0, 0)]

    func testEveryBuiltInSkinFileLoadsAndMatchesTheCompiledInCopy() throws {
        let loader = SkinLoader(userFolder: URL(fileURLWithPath: "/nonexistent-\(UUID())"), builtInFolder: repositorySkins)
        for system in GameSystem.allCases {
            let result = loader.skin(for: system)
            XCTAssertEqual(result.errors, [], "\(system)")
            XCTAssertEqual(result.source, .builtInFile(repositorySkins.appendingPathComponent("\(system.rawValue).json")))
            XCTAssertEqual(result.skin, BuiltInSkins.skin(for: system), "Skins/\(system.rawValue).json differs from BuiltInSkins")
            XCTAssertEqual(result.skin.system, system)
        }
    }

    func testLayoutsStayInsideTheTerminalWithoutOverlaps() {
        for system in GameSystem.allCases {
            let skin = BuiltInSkins.skin(for: system)
            for arrangement in skin.layouts {
                for shown in 0..<arrangement.screens.count {
                    for (columns, rows) in sizes {
                        for statusRows in [0, 1] {
                            let layout = skin.layout(terminalColumns: columns, rows: rows, statusBarRows: statusRows,
                                                     arrangement: arrangement.name, shownScreen: shown)
                            checkLayout(layout, skin: skin, columns: columns, rows: rows, statusRows: statusRows,
                                        label: "\(system) \(arrangement.name) \(columns)x\(rows)+\(statusRows)")
                        }
                    }
                }
            }
        }
    }

    private func checkLayout(_ layout: SkinLayout, skin: Skin, columns: Int, rows: Int, statusRows: Int, label: String) {
        let terminal = CellRect(x: 0, y: 0, columns: columns, rows: rows)
        let tooSmall = columns < skin.minimumSize.columns || rows - statusRows < skin.minimumSize.rows
        XCTAssertEqual(layout.isTooSmall, tooSmall, label)
        XCTAssertEqual(layout.requiredColumns, skin.minimumSize.columns, label)
        XCTAssertEqual(layout.requiredRows, skin.minimumSize.rows + statusRows, label)
        if tooSmall {
            XCTAssertEqual(layout.screens, [], label)
            return
        }
        XCTAssertEqual(layout.statusBar, CellRect(x: 0, y: rows - statusRows, columns: columns, rows: statusRows), label)
        XCTAssertFalse(layout.gameArea.intersects(layout.statusBar), label)
        XCTAssertFalse(layout.screens.isEmpty, label)
        var occupied: [CellRect] = layout.screens.map(\.cells)
        for screen in layout.screens {
            XCTAssertFalse(screen.cells.isEmpty, label)
            XCTAssertTrue(terminal.contains(screen.cells), "\(label): \(screen.cells)")
            XCTAssertTrue(layout.gameArea.contains(screen.cells), "\(label): \(screen.cells)")
        }
        for border in layout.borders {
            XCTAssertTrue(layout.gameArea.contains(border), label)
            XCTAssertEqual(layout.screens.filter { border.inset(by: 1) == $0.cells }.count, 1, "\(label): border \(border)")
        }
        if let legend = layout.legend {
            XCTAssertTrue(layout.gameArea.contains(legend.box), label)
            occupied.append(legend.box)
            for border in layout.borders { XCTAssertFalse(border.intersects(legend.box), label) }
        }
        for first in occupied.indices {
            for second in occupied.indices where second > first {
                XCTAssertFalse(occupied[first].intersects(occupied[second]), "\(label): \(occupied[first]) overlaps \(occupied[second])")
            }
        }
        for first in layout.borders.indices {
            for second in layout.borders.indices where second > first {
                XCTAssertFalse(layout.borders[first].intersects(layout.borders[second]), label)
            }
        }
    }

    func testSingleScreenSkinAt80x24() {
        let skin = BuiltInSkins.skin(for: .nes)
        let layout = skin.layout(terminalColumns: 80, rows: 24, statusBarRows: 1)
        XCTAssertFalse(layout.isTooSmall)
        XCTAssertEqual(layout.gameArea, CellRect(x: 0, y: 0, columns: 80, rows: 23))
        XCTAssertEqual(layout.legend?.box, CellRect(x: 64, y: 0, columns: 16, rows: 23))
        XCTAssertEqual(layout.legend?.buttons, GameSystem.nes.buttons)
        XCTAssertEqual(layout.borders, [CellRect(x: 0, y: 0, columns: 63, rows: 23)])
        XCTAssertEqual(layout.screens.map(\.cells), [CellRect(x: 1, y: 1, columns: 61, rows: 21)])
        XCTAssertNil(layout.screens[0].source)
    }

    func testLegendIsDroppedWhenThereIsNoRoom() {
        let skin = BuiltInSkins.skin(for: .gba)
        // 24 columns are the minimum picture; a 16-column legend plus its gap needs 41.
        XCTAssertNil(skin.layout(terminalColumns: 40, rows: 20, statusBarRows: 0).legend)
        XCTAssertNotNil(skin.layout(terminalColumns: 41, rows: 20, statusBarRows: 0).legend)
        XCTAssertTrue(skin.layout(terminalColumns: 23, rows: 20, statusBarRows: 0).isTooSmall)
        XCTAssertTrue(skin.layout(terminalColumns: 80, rows: 10, statusBarRows: 1).isTooSmall)
        XCTAssertFalse(skin.layout(terminalColumns: 80, rows: 11, statusBarRows: 1).isTooSmall)
    }

    func testDSLayouts() throws {
        let skin = BuiltInSkins.skin(for: .nds)
        let top = PixelRect(x: 0, y: 0, width: 256, height: 192)
        let bottom = PixelRect(x: 0, y: 192, width: 256, height: 192)

        let stacked = skin.layout(terminalColumns: 100, rows: 41, statusBarRows: 1, dsLayout: .stacked)
        XCTAssertEqual(stacked.arrangement, "stacked")
        XCTAssertEqual(stacked.screens.map(\.source), [top, bottom])
        XCTAssertEqual(stacked.borders, [CellRect(x: 0, y: 0, columns: 83, rows: 20), CellRect(x: 0, y: 20, columns: 83, rows: 20)])
        XCTAssertEqual(stacked.screens.map(\.alignment), [.bottom, .top])

        let sideBySide = skin.layout(terminalColumns: 100, rows: 41, statusBarRows: 1, dsLayout: .sideBySide)
        XCTAssertEqual(sideBySide.screens.map(\.source), [top, bottom])
        let left = sideBySide.borders[0], right = sideBySide.borders[1]
        XCTAssertEqual(left.y, right.y)
        XCTAssertEqual(left.rows, 40)
        XCTAssertEqual(left.maxX + 1, right.x, "one column gap")
        XCTAssertEqual(left.columns, right.columns)

        let singleTop = skin.layout(terminalColumns: 100, rows: 41, statusBarRows: 1, dsLayout: .singleTop)
        let singleBottom = skin.layout(terminalColumns: 100, rows: 41, statusBarRows: 1, dsLayout: .singleBottom)
        XCTAssertEqual(singleTop.screens.map(\.source), [top])
        XCTAssertEqual(singleBottom.screens.map(\.source), [bottom])
        XCTAssertEqual(singleTop.screens[0].cells, singleBottom.screens[0].cells)
        XCTAssertEqual(singleTop.screens[0].cells, CellRect(x: 1, y: 1, columns: 81, rows: 38))

        XCTAssertEqual(DSScreenLayout.singleTop.togglingSingleScreen(), .singleBottom)
        XCTAssertEqual(DSScreenLayout.singleBottom.togglingSingleScreen(), .singleTop)
        XCTAssertEqual(DSScreenLayout.stacked.togglingSingleScreen(), .singleBottom)
        XCTAssertEqual(DSScreenLayout.singleBottom.next(), .stacked)
        XCTAssertEqual(bottom.scaled(from: FrameSize(width: 256, height: 384), to: FrameSize(width: 512, height: 768)),
                       PixelRect(x: 0, y: 384, width: 512, height: 384))
    }

    func testUserSkinOverridesBuiltIn() throws {
        let folder = try TemporaryFolder("skin-user")
        defer { folder.remove() }
        _ = try folder.write("""
        {
          "system": "nes",
          "minimumSize": {"columns": 30, "rows": 10},
          "background": "#102030",
          "border": {"style": "none"},
          "legend": {"position": "bottom", "size": 3, "buttons": ["a", "b"]},
          "layouts": [{"name": "full", "screens": [{"name": "screen", "alignment": "top-left"}]}]
        }
        """, to: "user/nes.json")
        let loader = SkinLoader(userFolder: folder.file("user"), builtInFolder: repositorySkins)
        let result = loader.skin(for: .nes)
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.source, .user(folder.file("user/nes.json")))
        XCTAssertEqual(result.skin.background, SkinColor(red: 0x10, green: 0x20, blue: 0x30))
        let layout = result.skin.layout(terminalColumns: 60, rows: 20, statusBarRows: 1)
        XCTAssertEqual(layout.borders, [])
        XCTAssertEqual(layout.legend?.box, CellRect(x: 0, y: 16, columns: 60, rows: 3))
        XCTAssertEqual(layout.legend?.buttons, [.a, .b])
        XCTAssertEqual(layout.screens.map(\.cells), [CellRect(x: 0, y: 0, columns: 60, rows: 15)])
        XCTAssertEqual(layout.screens[0].alignment, .topLeft)
        // Other systems still come from the built-in files.
        XCTAssertEqual(loader.skin(for: .gb).source, .builtInFile(repositorySkins.appendingPathComponent("gb.json")))
    }

    func testBrokenUserSkinsFallBackWithOneLineErrors() throws {
        let folder = try TemporaryFolder("skin-broken")
        defer { folder.remove() }
        let valid = """
        "minimumSize": {"columns": 30, "rows": 10},
        "layouts": [{"name": "a", "screens": [{"name": "s"}]}]
        """
        let cases: [(GameSystem, String, Int?, String)] = [
            (.nes, "{\"system\": \"nes\",\n", 2, "not valid JSON"),
            (.nes, "{\"system\": \"nes\", \"minimumSize\": {\"columns\": \"wide\", \"rows\": 10}}", 1, "minimumSize.columns must be a whole number"),
            (.gb, "{\"system\": \"saturn\",\n\(valid)}", 1, "system must be one of"),
            (.gb, "{\"system\": \"gba\",\n\(valid)}", 1, "the file is named for gb but says system \"gba\""),
            (.nes, "{\"system\": \"nes\", \"minimumSize\": {\"columns\": 100000, \"rows\": 10}}", 1, "from 1 to 1000 (found 100000)"),
            (.nes, "{\"system\": \"nes\",\n\"colour\": \"#ffffff\",\n\(valid)}", 2, "unknown key \"colour\""),
            (.nes, "{\"system\": \"nes\", \"background\": \"red\",\n\(valid)}", 1, "background must be a colour"),
            (.nes, "{\"system\": \"nes\", \"legend\": {\"buttons\": [\"turbo\"]},\n\(valid)}", 1, "unknown button \"turbo\""),
            (.nds, """
            {"system": "nds", "frame": {"width": 256, "height": 384},
             "minimumSize": {"columns": 30, "rows": 10},
             "layouts": [{"name": "a", "screens": [
               {"name": "bottom", "source": {"x": 0, "y": 200, "width": 256, "height": 192}}]}]}
            """, 4, "layouts[0].screens[0].source (0,200 256x192) lies outside the 256x384 frame"),
            (.nes, "{\"system\": \"nes\", \"minimumSize\": {\"columns\": 30, \"rows\": 10},\n\"layouts\": []}", 2, "at least one arrangement"),
        ]
        for (system, text, line, fragment) in cases {
            let file = try folder.write(text, to: "user/\(system.rawValue).json")
            let loader = SkinLoader(userFolder: folder.file("user"), builtInFolder: repositorySkins)
            let result = loader.skin(for: system)
            XCTAssertEqual(result.errors.count, 1, text)
            let error = try XCTUnwrap(result.errors.first)
            XCTAssertEqual(error.file, file)
            XCTAssertEqual(error.line, line, "\(error)")
            XCTAssertTrue(error.problem.contains(fragment), "\(error) lacks \(fragment)")
            XCTAssertFalse(error.description.contains("\n"))
            XCTAssertEqual(result.skin, BuiltInSkins.skin(for: system))
            XCTAssertEqual(result.source, .builtInFile(repositorySkins.appendingPathComponent("\(system.rawValue).json")))
            try FileManager.default.removeItem(at: file)
        }
    }

    func testHugeSkinIsRefused() throws {
        let folder = try TemporaryFolder("skin-huge")
        defer { folder.remove() }
        _ = try folder.write("{" + String(repeating: " ", count: SkinLoader.maximumFileSize) + "}", to: "user/snes.json")
        let result = SkinLoader(userFolder: folder.file("user"), builtInFolder: nil).skin(for: .snes)
        XCTAssertEqual(result.source, .compiledIn)
        XCTAssertEqual(result.errors.count, 1)
        XCTAssertTrue(result.errors[0].problem.contains("limit is 256.0 KiB"), result.errors[0].problem)
    }

    func testBrokenBuiltInFileFallsBackToCompiledIn() throws {
        let folder = try TemporaryFolder("skin-builtin")
        defer { folder.remove() }
        let file = try folder.write("{\"system\": \"pce\"", to: "Skins/pce.json")
        let result = SkinLoader(userFolder: folder.file("user"), builtInFolder: folder.file("Skins")).skin(for: .pce)
        XCTAssertEqual(result.source, .compiledIn)
        XCTAssertEqual(result.errors.map(\.file), [file])
        XCTAssertEqual(result.skin, BuiltInSkins.skin(for: .pce))
    }

    func testBuiltInFolderIsFoundFromTheEnvironmentTheExecutableOrTheCurrentDirectory() throws {
        let folder = try TemporaryFolder("skin-locate")
        defer { folder.remove() }
        _ = try folder.write("{}", to: "checkout/Skins/nes.json")
        _ = try folder.write("{}", to: "elsewhere/nes.json")
        let executable = folder.file("checkout/.build/x86_64-unknown-linux-gnu/release/phosphor")
        let nowhere = folder.file("nowhere")
        try FileManager.default.createDirectory(at: nowhere, withIntermediateDirectories: true)

        XCTAssertEqual(SkinLoader.locateBuiltInFolder(environment: [:], executable: executable, currentDirectory: nowhere)?.path,
                       folder.file("checkout/Skins").path)
        XCTAssertEqual(SkinLoader.locateBuiltInFolder(environment: [:], executable: nil,
                                                      currentDirectory: folder.file("checkout/.build"))?.path,
                       folder.file("checkout/Skins").path)
        XCTAssertEqual(SkinLoader.locateBuiltInFolder(environment: ["PHOSPHOR_SKINS": folder.file("elsewhere").path],
                                                      executable: executable, currentDirectory: nowhere)?.path,
                       folder.file("elsewhere").path)
        XCTAssertNil(SkinLoader.locateBuiltInFolder(environment: [:], executable: nil, currentDirectory: nowhere))
        // Nothing found: every system still gets its compiled-in skin.
        for system in GameSystem.allCases {
            let result = SkinLoader(userFolder: nowhere, builtInFolder: nil).skin(for: system)
            XCTAssertEqual(result.source, .compiledIn)
            XCTAssertEqual(result.errors, [])
        }
    }

    func testColoursParse() {
        XCTAssertEqual(SkinColor(hex: "#FFd75f")?.rgb, 0xFFD75F)
        XCTAssertEqual(SkinColor(hex: "#0a0b0c")?.description, "#0a0b0c")
        XCTAssertNil(SkinColor(hex: "ffd75f"))
        XCTAssertNil(SkinColor(hex: "#ffd75"))
        XCTAssertNil(SkinColor(hex: "#ggggggg"))
        XCTAssertNil(SkinColor(hex: "#+12345"))
    }
}
