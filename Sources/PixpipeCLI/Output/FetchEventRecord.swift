import Pixpipe

/// One line of `pixpipe fetch --json`: an event name, and the fields of what happened.
///
/// - `{"event":"invalid","line":7,"url":"not a url","error":"...","errorKind":"invalid-url"}` for a bad line;
/// - `{"event":"started","index":0,"url":"..."}` when an item's transfer starts;
/// - `{"event":"finished","index":0,"url":"...","status":"ok",...}` with every manifest field;
/// - `{"event":"hostPace","host":"...","reason":"slowed"|"paused"|"recovered"|"crawl-delay","interval":SECONDS,
///   "pause":SECONDS}` when a host's pace changes (`pause` only when paused);
/// - `{"event":"summary","ok":..,"failed":..,"skipped":..,"invalid":..,"bytes":..,"failuresByKind":{..},
///   "stopReason":"cancelled"|"disk-error"|null,"exitStatus":N,"unchanged":..,"updated":..,"gone":..,
///   "redone":..,"skippedByReason":{..},"slowedHosts":{"HOST":SECONDS}}` last (`updated` items, stored again by `--refresh`, and `redone` items, made again because
///   the options changed, are also counted in `ok`).
enum FetchEventRecord: Encodable {
    /// A line of the list that is not a usable URL.
    case invalid(URLListError)
    /// An item's transfer started.
    case started(index: Int, url: String)
    /// An item is done.
    case finished(index: Int, record: ManifestRecord)
    /// A host's pace changed.
    case hostPace(HostPaceChange)
    /// The batch is over.
    case summary(FetchOutcome)

    private enum Key: String, CodingKey {
        case event, index, line, url, error, errorKind, ok, failed, skipped, invalid, bytes, failuresByKind
        case stopReason, exitStatus, unchanged, updated, gone, redone, skippedByReason, slowedHosts
        case host, reason, interval, pause
    }

    /// Encodes the flat object.
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .finished(_, let record):
            // The record's own fields first, then the event's, all in one object.
            try record.encode(to: encoder)
        default: break
        }
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .invalid(let error):
            try container.encode("invalid", forKey: .event)
            try container.encodeIfPresent(error.line, forKey: .line)
            try container.encode(error.offendingText, forKey: .url)
            try container.encode(error.description, forKey: .error)
            try container.encode(error.shortName, forKey: .errorKind)
        case .started(let index, let url):
            try container.encode("started", forKey: .event)
            try container.encode(index, forKey: .index)
            try container.encode(url, forKey: .url)
        case .finished(let index, _):
            try container.encode("finished", forKey: .event)
            try container.encode(index, forKey: .index)
        case .hostPace(let change):
            try container.encode("hostPace", forKey: .event)
            try container.encode(change.host, forKey: .host)
            try container.encode(change.reason.rawValue, forKey: .reason)
            try container.encode(change.intervalSeconds, forKey: .interval)
            try container.encodeIfPresent(change.pauseSeconds, forKey: .pause)
        case .summary(let outcome):
            try container.encode("summary", forKey: .event)
            try container.encode(outcome.summary.ok, forKey: .ok)
            try container.encode(outcome.summary.failed, forKey: .failed)
            try container.encode(outcome.summary.skipped, forKey: .skipped)
            try container.encode(outcome.invalidLines, forKey: .invalid)
            try container.encode(outcome.summary.bytes, forKey: .bytes)
            try container.encode(outcome.failuresByKind, forKey: .failuresByKind)
            try container.encode(outcome.stopReasonName, forKey: .stopReason)
            try container.encode(outcome.exitStatus.rawValue, forKey: .exitStatus)
            try container.encode(outcome.summary.unchanged, forKey: .unchanged)
            try container.encode(outcome.summary.updated, forKey: .updated)
            try container.encode(outcome.summary.gone, forKey: .gone)
            try container.encode(outcome.summary.redone, forKey: .redone)
            try container.encode(outcome.summary.skippedByReason, forKey: .skippedByReason)
            try container.encode(outcome.summary.slowedHosts, forKey: .slowedHosts)
        }
    }
}
