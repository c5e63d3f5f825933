import PixpipeLocking

/// Counts the attempts the server saw for each soak URL (requests for the pristine copy excluded).
final class SoakLedger: Sendable {
    private let attempts: Locked<[Int]>

    /// A ledger for URLs `0..<count`, all at zero.
    init(count: Int) {
        attempts = Locked([Int](repeating: 0, count: count))
    }

    /// Records one more attempt at URL `index` and returns its 1-based number.
    func recordAttempt(_ index: Int) -> Int {
        attempts.withLock { counts in
            counts[index] += 1
            return counts[index]
        }
    }

    /// The attempts so far, by index.
    var snapshot: [Int] { attempts.withLock { $0 } }
}
