/// The picture size and timing a core reports (retro_system_av_info), updated by
/// SET_GEOMETRY and SET_SYSTEM_AV_INFO during play.
public struct AVInfo: Sendable, Equatable {
    public var baseWidth: Int
    public var baseHeight: Int
    public var maxWidth: Int
    public var maxHeight: Int
    /// The display aspect ratio the core asks for; nil means width / height.
    public var aspectRatio: Double?
    public var framesPerSecond: Double
    public var sampleRate: Double

    public init(baseWidth: Int, baseHeight: Int, maxWidth: Int, maxHeight: Int, aspectRatio: Double?,
                framesPerSecond: Double, sampleRate: Double) {
        self.baseWidth = baseWidth
        self.baseHeight = baseHeight
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.aspectRatio = aspectRatio
        self.framesPerSecond = framesPerSecond
        self.sampleRate = sampleRate
    }
}

/// One entry of SET_INPUT_DESCRIPTORS: what the game calls a button.
public struct InputDescriptor: Sendable, Equatable {
    public var port: Int
    public var device: Int
    public var index: Int
    public var id: Int
    public var description: String
}
