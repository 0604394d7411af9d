import Foundation

/// Why a save-state operation was refused, as one line naming the file and the problem.
public struct StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case invalidSlot
        case emptySlot
        case locked
        case wrongGame
        case wrongCore
        case damaged
        case wrongSize
        case nothingToUndo
        case tooLarge
    }

    public var kind: Kind
    public var file: URL?
    public var problem: String

    public init(_ kind: Kind, file: URL?, _ problem: String) {
        self.kind = kind
        self.file = file
        self.problem = problem
    }

    public var description: String {
        guard let file else { return problem }
        return "\(file.lastPathComponent): \(problem)"
    }
}
