import PhosphorKit

extension Skin {
    /// Limits that catch a mistyped number before it turns into a giant allocation or a layout
    /// that can never fit.
    static let frameRange = 1...4096
    static let minimumColumnsRange = 1...1000
    static let minimumRowsRange = 1...500
    static let legendSizeRange = 1...80
    static let gapRange = 0...20
    static let maximumScreens = 4

    /// Builds a skin from a parsed skin file, checking every value. Unknown keys are errors here
    /// (a skin is small and a typo would silently change the look). `expectedSystem` is the
    /// system the file name promises.
    static func read(from root: PositionedJSON, expectedSystem: GameSystem?) throws(JSONFieldProblem) -> Skin {
        var top = try JSONObjectReader(root, path: "")
        if let format = try top.integer("format", in: 0...Int(Int32.max)), format > formatVersion {
            throw JSONFieldProblem(line: root.line, message: "skin format \(format) is newer than this Phosphor reads (\(formatVersion))")
        }
        guard let systemNode = top.node("system") else {
            throw JSONFieldProblem(line: root.line, message: "missing \"system\" (one of \(GameSystem.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let system = try JSONObjectReader.choice(systemNode, path: "system", as: GameSystem.self)
        if let expectedSystem, system != expectedSystem {
            throw JSONFieldProblem(line: systemNode.line,
                                   message: "the file is named for \(expectedSystem.rawValue) but says system \"\(system.rawValue)\"")
        }
        let name = try top.string("name") ?? system.displayName

        var frame: FrameSize?
        if var frameReader = try top.object("frame") {
            frame = FrameSize(width: try required(&frameReader, "width", in: frameRange),
                              height: try required(&frameReader, "height", in: frameRange))
            try rejectUnknown(frameReader)
        }

        guard var sizeReader = try top.object("minimumSize") else {
            throw JSONFieldProblem(line: root.line, message: "missing \"minimumSize\" ({\"columns\": …, \"rows\": …})")
        }
        let minimumSize = CellSize(columns: try required(&sizeReader, "columns", in: minimumColumnsRange),
                                   rows: try required(&sizeReader, "rows", in: minimumRowsRange))
        try rejectUnknown(sizeReader)

        let background = try color(&top, "background") ?? SkinColor(red: 0, green: 0, blue: 0)

        var border = SkinBorder(style: .none, color: SkinColor(red: 0x80, green: 0x80, blue: 0x80))
        if var borderReader = try top.object("border") {
            if let style = try borderReader.choice("style", as: BorderStyle.self) { border.style = style }
            if let borderColor = try color(&borderReader, "color") { border.color = borderColor }
            if let givesWay = try borderReader.bool("givesWay") { border.givesWay = givesWay }
            try rejectUnknown(borderReader)
        }

        var legend: SkinLegend?
        if var legendReader = try top.object("legend") {
            legend = try readLegend(&legendReader, system: system)
            try rejectUnknown(legendReader)
        }

        guard let layoutsNode = top.node("layouts") else {
            throw JSONFieldProblem(line: root.line, message: "missing \"layouts\" (a list with at least one arrangement)")
        }
        guard case .array(let layoutNodes) = layoutsNode.value, !layoutNodes.isEmpty else {
            throw JSONFieldProblem(line: layoutsNode.line, message: "layouts must be a list with at least one arrangement")
        }
        var layouts: [SkinArrangement] = []
        for (position, node) in layoutNodes.enumerated() {
            let arrangement = try readArrangement(node, path: "layouts[\(position)]", frame: frame)
            if layouts.contains(where: { $0.name == arrangement.name }) {
                throw JSONFieldProblem(line: node.line, message: "two layouts are called \"\(arrangement.name)\"")
            }
            layouts.append(arrangement)
        }
        try rejectUnknown(top)

        return Skin(system: system, name: name, frame: frame, minimumSize: minimumSize, background: background,
                    border: border, legend: legend, layouts: layouts)
    }

    private static func readLegend(_ reader: inout JSONObjectReader, system: GameSystem) throws(JSONFieldProblem) -> SkinLegend {
        let position = try reader.choice("position", as: LegendPosition.self) ?? .right
        let size = try reader.integer("size", in: legendSizeRange) ?? (position == .bottom ? 2 : 16)
        var buttons = system.buttons
        if let names = try reader.stringList("buttons") {
            buttons = []
            for name in names {
                guard let button = JoypadButton(name: name) else {
                    throw JSONFieldProblem(line: reader.line,
                                           message: "\(reader.fieldPath("buttons")) has an unknown button \"\(name)\" (known: \(JoypadButton.allCases.map(\.name).joined(separator: ", ")))")
                }
                buttons.append(button)
            }
        }
        let textColor = try color(&reader, "textColor") ?? SkinColor(red: 0xA8, green: 0xA8, blue: 0xA8)
        let keyColor = try color(&reader, "keyColor") ?? SkinColor(red: 0xFF, green: 0xFF, blue: 0xFF)
        var legend = SkinLegend(position: position, size: size, buttons: buttons, textColor: textColor, keyColor: keyColor)
        if let givesWay = try reader.bool("givesWay") { legend.givesWay = givesWay }
        return legend
    }

    private static func readArrangement(_ node: PositionedJSON, path: String,
                                        frame: FrameSize?) throws(JSONFieldProblem) -> SkinArrangement {
        var reader = try JSONObjectReader(node, path: path)
        guard let name = try reader.string("name"), !name.isEmpty else {
            throw JSONFieldProblem(line: node.line, message: "\(path) needs a \"name\"")
        }
        let direction = try reader.choice("direction", as: ScreenDirection.self) ?? .single
        let gap = try reader.integer("gap", in: gapRange) ?? 0
        guard let screensNode = reader.node("screens") else {
            throw JSONFieldProblem(line: node.line, message: "\(path) needs \"screens\" (a list of 1 to \(maximumScreens))")
        }
        guard case .array(let screenNodes) = screensNode.value, (1...maximumScreens).contains(screenNodes.count) else {
            throw JSONFieldProblem(line: screensNode.line, message: "\(path).screens must be a list of 1 to \(maximumScreens) screens")
        }
        var screens: [SkinScreen] = []
        for (position, screenNode) in screenNodes.enumerated() {
            let screenPath = "\(path).screens[\(position)]"
            var screenReader = try JSONObjectReader(screenNode, path: screenPath)
            let screenName = try screenReader.string("name") ?? "screen \(position + 1)"
            let alignment = try screenReader.choice("alignment", as: ScreenAlignment.self) ?? .center
            var source: PixelRect?
            if let sourceNode = screenReader.node("source") {
                source = try readSource(sourceNode, path: "\(screenPath).source", frame: frame)
            }
            try rejectUnknown(screenReader)
            screens.append(SkinScreen(name: screenName, source: source, alignment: alignment))
        }
        try rejectUnknown(reader)
        return SkinArrangement(name: name, direction: direction, gap: gap, screens: screens)
    }

    private static func readSource(_ node: PositionedJSON, path: String,
                                   frame: FrameSize?) throws(JSONFieldProblem) -> PixelRect {
        guard let frame else {
            throw JSONFieldProblem(line: node.line, message: "\(path) needs the skin's \"frame\" size to refer to")
        }
        var reader = try JSONObjectReader(node, path: path)
        let rect = PixelRect(x: try required(&reader, "x", in: 0...frameRange.upperBound),
                             y: try required(&reader, "y", in: 0...frameRange.upperBound),
                             width: try required(&reader, "width", in: frameRange),
                             height: try required(&reader, "height", in: frameRange))
        try rejectUnknown(reader)
        guard rect.x + rect.width <= frame.width, rect.y + rect.height <= frame.height else {
            throw JSONFieldProblem(line: node.line,
                                   message: "\(path) (\(rect.x),\(rect.y) \(rect.width)x\(rect.height)) lies outside the \(frame.width)x\(frame.height) frame")
        }
        return rect
    }

    private static func required(_ reader: inout JSONObjectReader, _ key: String,
                                 in range: ClosedRange<Int>) throws(JSONFieldProblem) -> Int {
        guard let value = try reader.integer(key, in: range) else {
            throw JSONFieldProblem(line: reader.line, message: "\(reader.fieldPath(key)) is missing")
        }
        return value
    }

    private static func color(_ reader: inout JSONObjectReader, _ key: String) throws(JSONFieldProblem) -> SkinColor? {
        guard let node = reader.node(key) else { return nil }
        guard case .string(let text) = node.value, let color = SkinColor(hex: text) else {
            throw JSONFieldProblem(line: node.line, message: "\(reader.fieldPath(key)) must be a colour like \"#1a2b3c\"")
        }
        return color
    }

    private static func rejectUnknown(_ reader: JSONObjectReader) throws(JSONFieldProblem) {
        if let member = reader.unreadMembers().first {
            throw JSONFieldProblem(line: member.line, message: "unknown key \"\(reader.fieldPath(member.key))\"")
        }
    }
}
