import Foundation
import PixpipeLocking

/// Times a closure with warm-up runs, then reports the median and minimum of the timed runs.
///
/// Warm-up runs fault in the allocator's pages and the library's tables so that the timed runs
/// measure steady-state work, which is what a long-running process sees.
struct Stopwatch {
    /// Untimed runs before measuring.
    var warmups: Int
    /// Timed runs; the median is reported.
    var repetitions: Int

    /// Seconds taken by each timed run, in run order.
    func measure<E: Error>(_ body: () throws(E) -> Void) throws(E) -> [Double] {
        for _ in 0..<warmups { try body() }
        var seconds: [Double] = []
        seconds.reserveCapacity(repetitions)
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            seconds.append(elapsed.secondsValue)
        }
        return seconds
    }

    /// The median of `values` (mean of the middle two for an even count); 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
