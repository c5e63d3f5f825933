/// The coordinator's resume checks under way: the batch being collected, and at most one batch whose stored
/// files are being read in the background meanwhile.
///
/// A batch is started when the next one is full, so the coordinator goes on reading the list, naming and
/// looking up items while ``ResumeCheck``'s lanes read the previous batch's files: on two cores the two
/// overlap instead of taking turns. Results come back in the order the items were added, batch after batch.
struct PendingChecks {
    /// An item and what its check needs.
    typealias Check = (job: ItemJob, candidate: ResumeCheck.Candidate)

    /// How many items a batch holds.
    static let batchSize = 256

    private var collecting: [Check] = []
    private var inFlight: (jobs: [ItemJob], task: Task<[ManifestRecord?], Never>)?

    /// Whether nothing is collected or under way.
    var isEmpty: Bool { collecting.isEmpty && inFlight == nil }

    /// Whether the batch being collected is full (time for ``rotate(using:)``).
    var isFull: Bool { collecting.count >= Self.batchSize }

    /// Adds an item whose skip depends on its stored file.
    mutating func append(_ check: Check) {
        collecting.append(check)
    }

    /// Waits for the batch under way and returns its items with their skip records (`nil`: download it), then
    /// starts the collected batch in the background.
    mutating func rotate(using resume: ResumeCheck) async -> [(ItemJob, ManifestRecord?)] {
        let finished = await collectInFlight()
        guard !collecting.isEmpty else { return finished }
        let candidates = collecting.map(\.candidate)
        inFlight = (collecting.map(\.job), Task { resume.skips(candidates) })
        collecting.removeAll(keepingCapacity: true)
        return finished
    }

    /// Every item added so far with its skip record, in order: the batch under way, then the collected one.
    mutating func drain(using resume: ResumeCheck) async -> [(ItemJob, ManifestRecord?)] {
        var finished = await rotate(using: resume)
        finished += await collectInFlight()
        return finished
    }

    private mutating func collectInFlight() async -> [(ItemJob, ManifestRecord?)] {
        guard let (jobs, task) = inFlight else { return [] }
        inFlight = nil
        return Array(zip(jobs, await task.value))
    }
}
