import PhosphorKit
import Render
import XCTest
@testable import Shell

/// The layout prefers a whole scale of the frame: the legend, then the border, give way when the
/// picture would otherwise be blended at just under a whole scale.
final class SkinLayoutScaleTests: XCTestCase {
    private let gbc = FrameSize(width: 160, height: 144)

    private func fit(_ layout: SkinLayout, _ size: FrameSize, screen: Int = 0) -> PictureLayout {
        PictureLayout.fit(sourceWidth: size.width, sourceHeight: size.height, into: layout.screens[screen].cells,
                          options: ScalingOptions())
    }

    func testGBCAt170x80IsDrawnOneToOneWithTheLegendGone() {
        let skin = BuiltInSkins.skin(for: .gbc)
        // Without the frame's size the old layout: legend and border leave 151x77 cells, a 0.94x picture.
        let old = skin.layout(terminalColumns: 170, rows: 80, statusBarRows: 1)
        XCTAssertNotNil(old.legend)
        XCTAssertNil(fit(old, gbc).integerScale)

        let layout = skin.layout(terminalColumns: 170, rows: 80, statusBarRows: 1, pictureSize: gbc)
        XCTAssertNil(layout.legend)
        XCTAssertEqual(layout.borders.count, 1, "the border still fits beside a 1:1 picture")
        XCTAssertEqual(fit(layout, gbc).integerScale, 1)
        XCTAssertEqual(fit(layout, gbc).picture.width, 160)
    }

    func testGBCWithRoomForTwiceKeepsTheLegend() {
        let skin = BuiltInSkins.skin(for: .gbc)
        // 2x needs 320 picture columns: with the 17-column legend and the border, 340 columns.
        let layout = skin.layout(terminalColumns: 340, rows: 160, statusBarRows: 1, pictureSize: gbc)
        XCTAssertNotNil(layout.legend)
        XCTAssertEqual(layout.borders.count, 1)
        XCTAssertEqual(fit(layout, gbc).integerScale, 2)
        // At 320x160 a 2x picture needs every column: the legend and the border both give way.
        let narrow = skin.layout(terminalColumns: 320, rows: 160, statusBarRows: 1, pictureSize: gbc)
        XCTAssertNil(narrow.legend)
        XCTAssertEqual(narrow.borders, [])
        XCTAssertEqual(fit(narrow, gbc).integerScale, 2)
    }

    func testFarFromAWholeScaleNothingGivesWay() {
        let skin = BuiltInSkins.skin(for: .gbc)
        // 120x60: about 0.62x with everything; dropping the legend cannot reach 1x.
        let layout = skin.layout(terminalColumns: 120, rows: 60, statusBarRows: 1, pictureSize: gbc)
        XCTAssertNotNil(layout.legend)
        XCTAssertEqual(layout.borders.count, 1)
    }

    func testASkinMayKeepItsLegend() {
        var skin = BuiltInSkins.skin(for: .gbc)
        skin.legend?.givesWay = false
        // The border alone cannot make room for 160 columns beside the legend: nothing changes.
        let layout = skin.layout(terminalColumns: 170, rows: 80, statusBarRows: 1, pictureSize: gbc)
        XCTAssertNotNil(layout.legend)
        XCTAssertEqual(layout.borders.count, 1)
        // With the legend kept, 177 columns leave 160 for the picture once the border goes.
        let wider = skin.layout(terminalColumns: 177, rows: 80, statusBarRows: 1, pictureSize: gbc)
        XCTAssertNotNil(wider.legend)
        XCTAssertEqual(wider.borders, [])
        XCTAssertEqual(fit(wider, gbc).integerScale, 1)
    }

    func testStackedDSKeepsBothScreens() {
        let skin = BuiltInSkins.skin(for: .nds)
        let ds = FrameSize(width: 256, height: 384)
        for (columns, rows) in [(80, 24), (200, 100), (262, 196), (300, 200)] {
            let layout = skin.layout(terminalColumns: columns, rows: rows, statusBarRows: 1, dsLayout: .stacked, pictureSize: ds)
            XCTAssertEqual(layout.screens.count, 2, "\(columns)x\(rows)")
            XCTAssertEqual(layout.screens.map { $0.source?.y }, [0, 192], "\(columns)x\(rows)")
            XCTAssertTrue(layout.screens.allSatisfy { !$0.cells.isEmpty }, "\(columns)x\(rows)")
        }
        // Just too small for 1:1 with the borders: they give way and both screens are 1:1.
        let layout = skin.layout(terminalColumns: 258, rows: 194, statusBarRows: 1, dsLayout: .stacked, pictureSize: ds)
        let top = PictureLayout.fit(sourceWidth: 256, sourceHeight: 192, into: layout.screens[0].cells, options: ScalingOptions())
        let bottom = PictureLayout.fit(sourceWidth: 256, sourceHeight: 192, into: layout.screens[1].cells, options: ScalingOptions())
        XCTAssertEqual(top.integerScale, 1, "\(layout)")
        XCTAssertEqual(bottom.integerScale, 1, "\(layout)")
    }
}
