import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One running copy per game: two copies of the same game would each write its battery save and
/// automatic state, and the last writer would silently win. A game holds `flock` on
/// `states/<system>/<game>.lock` while it runs (play and `run --headless`), with its pid written
/// inside for the message. The kernel lets go of an flock when its process dies, SIGKILL
/// included, so a stale lock of a dead pid is simply taken over by the next start.
///
/// A second copy is refused (not run read-only): a copy that plays without saving would let the
/// player make progress that silently vanishes, which is the data loss this prevents.
///
/// The file is never removed (removing it would let a third copy lock a new file while the second
/// still holds the old one). UI thread (or the headless run's main thread).
final class GameLock {
    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { release() }

    /// The lock file for a game.
    static func file(states: URL, system: String, gameKey: String) -> URL {
        states.appendingPathComponent(system).appendingPathComponent("\(gameKey).lock")
    }

    /// Takes the lock or throws one line naming the other copy's pid. A lock that cannot be
    /// made at all (a read-only folder) is not a reason to refuse the game: it runs unlocked.
    static func acquire(_ file: URL, game: String) throws -> GameLock? {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let held = errno == EWOULDBLOCK
            let owner = (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            guard held else { return nil }
            throw GameLockError(description: "\(game) is already running in another phosphor (pid \(owner.flatMap(Int.init).map(String.init) ?? "unknown")); close that one first, two copies would overwrite each other's saves")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return GameLock(descriptor: descriptor)
    }

    /// Lets go (closing the game). Safe to call more than once.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}

/// A second copy of a running game, in one line naming the first one's pid.
struct GameLockError: Error, CustomStringConvertible {
    var description: String
}
