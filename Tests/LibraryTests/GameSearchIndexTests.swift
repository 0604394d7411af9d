import Foundation
import XCTest
@testable import Library
import TestSupport

/// The index must answer exactly what a plain scan of every key answers.
final class GameSearchIndexTests: XCTestCase {
    private static let words = ["Crystal", "Quest", "Légende", "Pokémon", "Zelda", "Super", "Mario", "Kart", "Ninja",
                                "Castlevania", "Tetris", "DX", "Año", "Dragon", "Star", "Fox", "Bomberman", "Kirby",
                                "Mystic", "Über", "Golf", "2", "64", "III"]
    private static let regions = ["(USA)", "(Europe)", "(Japan)", "(World)", "(USA, Europe) (Rev 1)"]

    /// 20 000 titles from a seeded generator, folded as the library stores them.
    private func keys() -> [String] {
        var generator = SeededGenerator(seed: 17)
        return (0..<20_000).map { number in
            let title = (0..<Int.random(in: 1...4, using: &generator)).map { _ in Self.words.randomElement(using: &generator)! }
                .joined(separator: " ") + " \(number) " + Self.regions.randomElement(using: &generator)!
            return GameLibrary.searchKey(title: title, fileTitle: title.replacingOccurrences(of: " ", with: "_"))
        }
    }

    private func queries() -> [String] {
        var generator = SeededGenerator(seed: 4)
        let letters = Array("abcdeimnorstuxyz2 ")
        var queries = ["", " ", "e", "é", "E", "mar", "MARIO kart", "pokemon", "Pokémon cry", "ueber", "uber", "año",
                       "ano", "(usa", "rev 1", "1999", "zzz", "qu", "x d", "kart mario", "tetris 12"]
        for _ in 0..<60 {
            let word = Self.words.randomElement(using: &generator)!
            let start = Int.random(in: 0..<word.count, using: &generator)
            let length = Int.random(in: 1...max(1, word.count - start), using: &generator)
            var query = String(Array(word)[start..<(start + length)])
            if Bool.random(using: &generator) { query += " " + String((0..<Int.random(in: 1...3, using: &generator)).map { _ in letters.randomElement(using: &generator)! }) }
            queries.append(query)
        }
        return queries
    }

    func testIndexedSearchOver20000TitlesEqualsAPlainScan() {
        let keys = keys()
        var index = GameSearchIndex(keys: keys)
        let plain = { (query: String) -> [Int32] in
            let words = GameLibrary.folded(query).split(whereSeparator: { $0.isWhitespace }).map(String.init)
            return keys.indices.filter { GameSearchIndex.matchesPlainly(key: keys[$0], foldedWords: words) }.map(Int32.init)
        }
        let queries = queries()
        // Before the trigram lists (one pass per word) and after them (posting lists).
        for query in queries.prefix(20) { XCTAssertEqual(index.matching(query), plain(query), "no trigrams: \"\(query)\"") }
        index.buildTrigrams()
        var matched = 0
        for query in queries {
            let expected = plain(query)
            XCTAssertEqual(index.matching(query), expected, "\"\(query)\"")
            if !expected.isEmpty && expected.count < keys.count { matched += 1 }
        }
        XCTAssertGreaterThan(matched, queries.count / 2, "the queries exercise real filtering")
    }

    func testTypingLetterByLetterNarrowsToTheSameAnswer() {
        let keys = keys()
        var index = GameSearchIndex(keys: keys)
        index.buildTrigrams()
        for query in ["pokemon crystal", "super mario 64", "zelda (europe)", "kart 1"] {
            var previous: [Int32]?
            for end in 1...query.count {
                let typed = String(query.prefix(end))
                let narrowed = index.matching(typed, within: previous)
                XCTAssertEqual(narrowed, index.matching(typed), "\"\(typed)\"")
                previous = narrowed
            }
        }
    }
}

