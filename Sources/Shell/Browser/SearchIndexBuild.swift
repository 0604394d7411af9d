import Foundation
import Library
import Synchronization

/// Builds a search index's trigram lists on a thread of its own (a few hundred milliseconds at
/// 20 000 games on a busy machine: too long for the UI thread). Until it is done the browser
/// searches without them, by one pass over the keys. The UI thread polls `result` on its ticks.
final class SearchIndexBuild: Sendable {
    struct Built: Sendable {
        let index: GameSearchIndex
        let generation: Int
        let milliseconds: String
    }

    private let state = Mutex<Built?>(nil)

    init(_ index: GameSearchIndex, generation: Int) {
        let thread = Thread { [self] in
            let started = ContinuousClock.now
            var index = index
            index.buildTrigrams()
            let built = Built(index: index, generation: generation, milliseconds: LibraryScreen.milliseconds(since: started))
            self.state.withLock { $0 = built }
        }
        thread.name = "phosphor-search-index"
        thread.start()
    }

    /// The built index once the thread is done, else nil. Any thread.
    var result: Built? { state.withLock { $0 } }
}
