/// Finds the known word closest to a mistyped one, for "did you mean" hints.
enum SpellingSuggestion {
    /// The candidate nearest to `word` when it is close enough to be a plausible typo, else `nil`.
    ///
    /// Close enough means an edit distance of at most a third of the word's length (at least 1),
    /// or the word being a prefix of exactly one candidate (`--qual` for `--quality`).
    static func closest(to word: String, among candidates: [String]) -> String? {
        let prefixMatches = candidates.filter { $0.hasPrefix(word) }
        if word.count >= 3, prefixMatches.count == 1 { return prefixMatches[0] }
        let threshold = max(1, word.count / 3)
        let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= threshold else { return nil }
        return best.candidate
    }

    /// The Levenshtein distance: the fewest single-character insertions, deletions or substitutions.
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
