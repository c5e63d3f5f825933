import Pixpipe

/// How a `pixpipe fetch` run ended: the downloader's summary plus the list's bad lines, and the exit status.
struct FetchOutcome: Sendable {
    /// The downloader's account.
    let summary: DownloadSummary
    /// Lines of the list that were not usable URLs, by kind.
    let invalidByKind: [String: Int]
    /// Seconds the batch ran.
    let elapsed: Double
    /// Whether the run refreshed (`--refresh`): the summary then says what the revalidation found.
    var refreshes = false
    /// Whether items found gone had their files deleted (`--prune`), which makes `gone` a success.
    var prunesGone = false
    /// Whether images were decoded strictly (no `--lenient`): damaged ones then fail, and the summary says
    /// what would store them.
    var decodesStrictly = true

    /// Lines in error.
    var invalidLines: Int { invalidByKind.values.reduce(0, +) }

    /// Failures of items and of lines, by kind.
    var failuresByKind: [String: Int] { summary.failuresByKind.merging(invalidByKind, uniquingKeysWith: +) }

    /// `cancelled`, `disk-error`, or `nil` when the batch ran to the end.
    var stopReasonName: String? {
        switch summary.stopReason {
        case .none: nil
        case .cancelled: "cancelled"
        case .diskError: "disk-error"
        }
    }

    /// 130 when interrupted, 1 when anything failed, the batch stopped on a disk error, or items were found
    /// gone without `--prune` (the folder now holds files the server no longer has), else 0.
    var exitStatus: ExitStatus {
        if summary.stopReason == .cancelled { return .interrupted }
        let goneFailures = prunesGone ? 0 : summary.gone
        return summary.failed + invalidLines + goneFailures > 0 || summary.stopReason != nil ? .failure : .success
    }

    /// The summary for people, as lines for standard error.
    var humanLines: [String] {
        let done = summary.ok + summary.failed + summary.skipped + summary.unchanged + summary.gone + invalidLines
        var lines = [
            "\(done) item\(done == 1 ? "" : "s"): \(summary.ok) ok, \(summary.failed + invalidLines) failed, "
                + "\(summary.skipped) skipped; \(ByteCountText.format(summary.bytes)) stored in "
                + "\(String(format: "%.1f", elapsed)) s"
        ]
        if summary.redone > 0 {
            lines.append("\(summary.redone) redone (options changed)")
        }
        if refreshes {
            lines.append(
                "refresh: \(summary.unchanged) unchanged, \(summary.updated) updated, \(summary.gone) gone"
                    + (summary.gone == 0 ? "" : prunesGone ? " (files deleted)" : " (files kept)"))
        }
        let kinds = failuresByKind.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        if !kinds.isEmpty {
            lines.append("failures: " + kinds.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        let reasons = summary.skippedByReason.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        if !reasons.isEmpty {
            // Say why, and what would make a rerun do them: a rerun that does nothing puzzles people.
            var hints: [String] = []
            if summary.skips[.alreadyDone, default: 0] > 0 {
                hints.append("stored by an earlier run; --refresh checks them with the server")
            }
            if summary.skips[.alreadyFailed, default: 0] + summary.skips[.alreadyGone, default: 0] > 0 {
                hints.append("--retry-failed tries earlier failures again")
            }
            if summary.skips[.robotsDisallowed, default: 0] > 0 {
                hints.append("their host's robots.txt disallows them (--robots)")
            }
            if summary.skips[.noAI, default: 0] > 0 {
                hints.append("their X-Robots-Tag says noai (--respect-noai)")
            }
            lines.append(
                "skipped: " + reasons.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    + (hints.isEmpty ? "" : " (" + hints.joined(separator: "; ") + ")"))
        }
        for (host, seconds) in summary.slowedHosts.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "slowed: \(host) answered 429/503, so its requests were spaced up to "
                    + String(format: "%.2f", seconds) + " s apart")
        }
        let damaged = summary.damagedImages
        if decodesStrictly && damaged > 0 {
            lines.append(
                "\(damaged) damaged image\(damaged == 1 ? "" : "s") failed: --lenient stores an image whose "
                    + "damaged part decodes as filled")
        }
        switch summary.stopReason {
        case .none: break
        case .cancelled: lines.append("interrupted: stopped early; the manifest lists what was done")
        case .diskError(let message): lines.append("stopped: \(message)")
        }
        return lines
    }
}

/// Byte counts for people.
enum ByteCountText {
    /// `512 B`, `1.5 KB`, `12.3 MB`, `1.02 GB` (powers of 1000, as in transfer rates).
    static func format(_ bytes: Int) -> String {
        let value = Double(bytes)
        switch value {
        case ..<1_000: return "\(bytes) B"
        case ..<1_000_000: return String(format: "%.1f KB", value / 1_000)
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1_000_000)
        default: return String(format: "%.2f GB", value / 1_000_000_000)
        }
    }
}
