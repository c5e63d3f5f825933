import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Takes one item from its download through verification, processing and the atomic write (resume skips
/// are decided before, by the coordinator: see ``ResumeCheck``).
///
/// Runs in the item's own child task, never on the coordinator. The transfer holds a network slot
/// (global and per host) only while bytes move; decoding and encoding hold a processing slot (one per
/// core), so downloads continue while other items are processed. One retry budget covers HTTP failures
/// and bodies that fail to decode as truncated or corrupt, all inside the item's deadline.
struct ItemRunner: Sendable {
    let options: DownloadOptions
    let client: HTTPClient
    let network: ConcurrencyLimiter
    let processors: ConcurrencyLimiter
    let writer: any DownloadFileWriting
    let fileWork: BlockingWorkQueue
    let events: EventChannel
    /// Spaces the attempts to each host, and slows down hosts that say they are overloaded.
    let pacer: HostRequestPacer
    /// Each host's robots.txt rules, under ``DownloadOptions/obeysRobotsTxt``; `nil` otherwise.
    let robots: RobotsCache?
    /// One place per paced host (a limiter of one slot per key): the item holding it waits for the host's
    /// next free start, then takes a network slot and the turn, and lets the next item of the host in.
    let pacingGates = ConcurrencyLimiter(limit: .max, perKeyLimit: 1)
    /// The per-host transfer slots shared with the other shards writing to the folder; `nil` without a shard.
    var sharedSlots: SharedTransferSlots? = nil

    /// Takes `job`'s place in the queue for a network slot; call it in list order, before the job's task
    /// starts, so that transfers start in list order (tasks themselves run in no set order). `nil` for a
    /// paced host: its items take their slots in turn at the host's gate instead, so that a reserved slot is
    /// never held by an item still waiting for its host's turn.
    func reserveTransfer(for job: ItemJob) -> SlotReservation? {
        pacer.paces(job.item.url) ? nil : network.reserve(key: Self.networkKey(for: job.item.url))
    }

    /// The host whose pace `job` keeps, when that host is paced now; `nil` otherwise.
    func pacedHost(of job: ItemJob) -> String? {
        pacer.paces(job.item.url) ? HostRequestPacer.host(job.item.url) : nil
    }

    /// Runs `job` to its outcome: attempts until one settles the item or the retry budget or the deadline
    /// runs out. The first transfer uses `reservation`, from ``reserveTransfer(for:)``; retries queue anew.
    func run(_ job: ItemJob, reservation: SlotReservation?) async -> ItemOutcome {
        if Task.isCancelled { return .cancelled }
        if let gone = job.recordedGone { return await pruneRecordedGone(job, entry: gone) }
        if job.redo, let outcome = await redoFromKeptOriginal(job) { return outcome }
        if let robots, let refusal = await robots.refusal(for: job.item.url) {
            if Task.isCancelled { return .cancelled }
            return skipped(job, reason: .robotsDisallowed, message: refusal)
        }
        var attempts = ItemAttempts(url: job.item.url)
        var reservation: SlotReservation? = reservation
        while true {
            if attempts.isPastDeadline, let limit = options.itemDeadline {
                return failure(.deadlineExceeded(limit, url: attempts.url), attempts, keeping: job.stored)
            }
            let fetched = await transfer(job, reservation: reservation, attempts: &attempts)
            reservation = nil
            guard let fetched else { return .cancelled }
            if options.reportsProgress, case .success(let response) = fetched.result {
                // Progress events may be dropped on the way; this one is not, so the body's full size is counted.
                await events.send(
                    .progress(
                        index: job.index, bytesReceived: response.value.count, bytesExpected: response.value.count))
            }
            switch await settle(fetched, job: job, attempts: &attempts) {
            case .settled(let outcome):
                return outcome
            case .retryable(let error, let retryAfter):
                guard let delay = retryDelay(after: attempts, retryAfter: retryAfter) else {
                    return failure(error, attempts, keeping: job.stored)
                }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    return .cancelled
                }
            }
        }
    }

    /// The item made again from the original kept beside its stored file, with no request; `nil` (download
    /// instead) when originals are not kept, the stored file is not as recorded, or no kept original decodes.
    /// The stored file's validators stay: the server's copy was not asked about.
    private func redoFromKeptOriginal(_ job: ItemJob) async -> ItemOutcome? {
        guard options.keepsOriginal, !options.storesAsReceived, let stored = job.stored else { return nil }
        let directory = options.outputDirectory
        let limit = options.maxBodyBytes
        let original: Data? = await fileWork.run {
            let folder = openFolder(directory.path)
            guard folder >= 0 else { return nil }
            defer { close(folder) }
            let stem = FileNameSanitizer.stem(of: stored.name) + ".original."
            for format in ImageFormat.all {
                if let data = Self.readStoredFile(Array((stem + format.fileExtension).utf8), in: folder, limit: limit),
                    ImageFormat.sniff(data) == format
                {
                    return data
                }
            }
            return nil
        }
        guard let original,
            case .success(let image)? = await process(original, url: job.item.url, contentType: nil, digester: nil)
        else { return nil }
        var attempts = ItemAttempts(url: job.item.url)
        attempts.start(deadline: nil)
        return await store(
            image, job: job, httpStatus: nil, validators: (stored.etag, stored.lastModified), attempts: attempts)
    }

    /// The bytes of the regular file `name` in the folder open as `folder` (never through a link), or `nil`
    /// for anything else or a file over `limit` bytes (the body limit a download of it would have had).
    private static func readStoredFile(_ name: [UInt8], in folder: Int32, limit: Int) -> Data? {
        let descriptor = StoredName.open(name, in: folder)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= limit
        else { return nil }
        return try? handle.readToEnd()
    }

    /// The key transfers to `url` count against for the per-host limit.
    private static func networkKey(for url: URL) -> String {
        "\(url.host ?? ""):\(url.port ?? -1)"
    }

    /// The name of `url`'s shared slot folder: the host, and the port when the URL gives one.
    private static func sharedSlotKey(for url: URL) -> String {
        let host = url.host?.lowercased() ?? ""
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// One transfer holding a network slot (global and per host), `reservation`'s when given; the first one
    /// starts the item's clocks. `nil` when cancelled while waiting for the slot.
    private func transfer(
        _ job: ItemJob, reservation: SlotReservation?, attempts: inout ItemAttempts
    ) async -> Fetched? {
        let url = job.item.url
        let deadline = options.itemDeadline
        // Only a body stored as it came is hashed as it arrives; processed output is hashed once encoded.
        let digester = options.storesAsReceived ? BodyDigester() : nil
        let gate = options.respectsNoAI ? NoAIGate(digester: digester, productToken: DownloadOptions.productToken) : nil
        let body = {
            (attempts: inout ItemAttempts, turnTaken: Bool) async -> Result<Response<Data>, HTTPError> in
            // The host's turn first, holding the slot (no burst after a stall), before any clock starts.
            if !turnTaken, await !pacer.waitForTurn(url) { return .failure(.cancelled(url: url)) }
            if attempts.count == 0 {
                attempts.start(deadline: deadline)
                if options.reportsStarts { await events.send(.started(index: job.index, url: url)) }
            }
            let result = await fetch(
                url, index: job.index, remaining: attempts.remaining, observer: gate ?? digester, stored: job.stored,
                redo: job.redo)
            // Told to the pacer while the slot is still held, so the host's next attempt already knows.
            if case .success(let response) = result {
                if response.statusCode == 429 || response.statusCode == 503 {
                    let change = pacer.overloaded(
                        url, retryAfter: response.headers["Retry-After"].flatMap { RetryAfter.delay(from: $0) })
                    await events.send(.hostPace(change))
                } else if (200..<300).contains(response.statusCode), let change = pacer.succeeded(url) {
                    await events.send(.hostPace(change))
                }
            }
            return result
        }
        let key = Self.networkKey(for: url)
        let result: Result<Response<Data>, HTTPError>?
        if let reservation {
            result = await reservation.withSlot { await withSharedSlot(url) { await body(&attempts, false) } } ?? nil
        } else if pacer.paces(url) {
            guard let shared = await takePacedSlot(url: url, key: key) else { return nil }
            result = await body(&attempts, true)
            if case .held(let descriptor) = shared { sharedSlots?.release(descriptor) }
            network.release(key: key)
        } else {
            result =
                await network.withSlot(key: key) { await withSharedSlot(url) { await body(&attempts, false) } } ?? nil
        }
        guard let result else { return nil }
        attempts.count += 1
        return Fetched(result: result, digester: digester, noAIDirective: gate?.refusedDirective)
    }

    /// Takes a network slot for `key` and the turn of `url`'s paced host, waiting for the turn at the host's
    /// gate first: while one item of the host sleeps until the host is free, it holds no network slot that
    /// another host's transfer could use, and the items behind it wait at the gate, not in the slot queue.
    /// The host's slot shared with other shards comes after the network slot and before the turn, as in
    /// ``withSharedSlot(_:_:)``. What was taken of the shared slots, or `nil` (holding nothing) when cancelled.
    private func takePacedSlot(url: URL, key: String) async -> SharedTransferSlots.Acquisition? {
        let taken = await pacingGates.withSlot(key: HostRequestPacer.host(url)) {
            () async -> SharedTransferSlots.Acquisition? in
            let delay = pacer.delayUntilFree(url)
            if delay > .zero {
                do { try await Task.sleep(for: delay) } catch { return nil }
            }
            guard await network.acquire(key: key) else { return nil }
            let shared = await sharedSlots?.acquire(key: Self.sharedSlotKey(for: url)) ?? .unshared
            // Taken before the gate opens for the next item, which then sees the host's following turn.
            if case .cancelled = shared {
                network.release(key: key)
                return nil
            }
            if await !pacer.waitForTurn(url) {
                if case .held(let descriptor) = shared { sharedSlots?.release(descriptor) }
                network.release(key: key)
                return nil
            }
            return shared
        }
        return taken ?? nil
    }

    /// Runs `body` holding `url`'s transfer slot shared with the other shards writing to the folder, when
    /// there are shards; `nil` when cancelled while waiting for it. Taken inside this process's network slot,
    /// so at most ``DownloadOptions/perHostConcurrency`` of its transfers wait on a host's shared slots, and
    /// before the host's turn and the item's clocks: waiting for it is queueing, and no turn passes unused.
    private func withSharedSlot<T>(_ url: URL, _ body: () async -> T) async -> T? {
        guard let sharedSlots else { return await body() }
        let shared = await sharedSlots.acquire(key: Self.sharedSlotKey(for: url))
        switch shared {
        case .cancelled:
            return nil
        case .unshared:
            return await body()
        case .held(let descriptor):
            defer { sharedSlots.release(descriptor) }
            return await body()
        }
    }

    /// What the attempt's answer makes of the item: stored, failed for good, or worth another attempt.
    private func settle(
        _ fetched: Fetched, job: ItemJob, attempts: inout ItemAttempts
    ) async -> AttemptResult {
        let policy = options.retryPolicy
        if let directive = fetched.noAIDirective, case .failure(let error) = fetched.result, error.isCancellation,
            !Task.isCancelled
        {
            return .settled(
                skipped(
                    job, reason: .noAI,
                    message: "\(job.item.url.absoluteString): X-Robots-Tag says \(directive); the body was not read"))
        }
        switch fetched.result {
        case .failure(let fetchError):
            if fetchError.isCancellation || Task.isCancelled { return .settled(.cancelled) }
            guard policy.shouldRetry(fetchError, method: .get, attempt: attempts.count) else {
                return .settled(failure(.load(.fetch(fetchError)), attempts, keeping: job.stored))
            }
            return .retryable(.load(.fetch(fetchError)), retryAfter: nil)
        case .success(let response)
        where job.stored != nil && !job.redo && Self.revalidationAnswers.contains(response.statusCode):
            attempts.lastStatus = response.statusCode
            let attempts = attempts
            return .settled(await revalidated(job, response: response, attempts: attempts))
        case .success(let response) where !(200..<300).contains(response.statusCode):
            attempts.lastStatus = response.statusCode
            let fetchError = HTTPError.httpStatus(code: response.statusCode, url: response.url, body: response.value)
            let retryAfter = response.headers["Retry-After"].flatMap { RetryAfter.delay(from: $0) }
            guard policy.shouldRetry(fetchError, method: .get, attempt: attempts.count) else {
                return .settled(failure(.load(.fetch(fetchError)), attempts, keeping: job.stored))
            }
            return .retryable(.load(.fetch(fetchError)), retryAfter: retryAfter)
        case .success(let response):
            attempts.lastStatus = response.statusCode
            guard
                let processed = await process(
                    response.value, url: job.item.url, contentType: response.headers["Content-Type"],
                    digester: fetched.digester)
            else {
                return .settled(.cancelled)
            }
            switch processed {
            case .success(let image):
                let attempts = attempts
                if !job.redo, let stored = job.stored, image.sha256.hexString == stored.sha256 {
                    // Fetched in full (no validators, or a server that ignores them), and the same bytes.
                    return .settled(unchanged(job, response: response, attempts: attempts))
                }
                return .settled(await store(image, job: job, response: response, attempts: attempts))
            case .failure(let error):
                guard error.isRetryableContent, attempts.count < policy.maxAttempts else {
                    return .settled(failure(error, attempts, keeping: job.stored))
                }
                return .retryable(error, retryAfter: nil)
            }
        }
    }

    /// The wait before the next attempt, or `nil` when waiting would only end past the item's deadline.
    private func retryDelay(after attempts: ItemAttempts, retryAfter: Duration?) -> Duration? {
        let delay = options.retryPolicy.delay(afterAttempt: attempts.count, retryAfter: retryAfter)
        guard let left = attempts.remaining else { return delay }
        // Waiting past the deadline would only end in a timeout: report the real failure instead.
        return delay < left ? delay : nil
    }

    /// The failed record of `error` after `attempts`, or no record at all when the batch is being cancelled.
    /// A refresh's failure keeps the `stored` file, and its record names it, so later runs still count it.
    func failure(_ error: DownloadError, _ attempts: ItemAttempts, keeping stored: StoredCopy?) -> ItemOutcome {
        if Task.isCancelled { return .cancelled }
        var record =
            stored?.record(url: attempts.url, status: .failed, httpStatus: attempts.lastStatus)
            ?? ManifestRecord(url: attempts.url.absoluteString, status: .failed, httpStatus: attempts.lastStatus)
        record.attempts = attempts.count
        record.elapsed = attempts.elapsedSeconds
        record.error = error.description
        record.errorKind = error.shortName
        return .failed(record, error)
    }

    /// The skipped record of `job` for `reason`: appended to the manifest for an item not stored yet; for a
    /// stored one only reported, so the manifest's record of its file stays the one later runs go by.
    private func skipped(_ job: ItemJob, reason: SkipReason, message: String) -> ItemOutcome {
        let record = ManifestRecord(
            url: job.item.url.absoluteString, status: .skipped, error: message, errorKind: reason.shortName)
        return job.stored == nil ? .finished(record) : .skipped(record)
    }

    /// Every status code, built once (not per request).
    private static let everyStatus = Set(100..<600)

    /// One transfer; every status is accepted here so the runner can read `Retry-After` itself.
    private func fetch(
        _ url: URL, index: Int, remaining: Duration?, observer: (any ResponseBodyObserver)?, stored: StoredCopy?,
        redo: Bool
    ) async -> Result<Response<Data>, HTTPError> {
        var request = Request<Data>(url: url)
        for (name, value) in options.headers { request.headers[name] = value }
        // A redo needs the whole body, whatever the server's copy: no conditional request.
        if !redo {
            for field in stored?.conditionalHeaders ?? HTTPHeaders() { request.headers[field.name] = field.value }
        }
        request.acceptableStatusCodes = Self.everyStatus
        request.acceptableContentTypes = nil
        request.retryPolicy = RetryPolicy.none
        request.timeout = remaining.map { min(options.timeout, $0) } ?? options.timeout
        request.bodyObserver = observer
        if options.reportsProgress {
            let events = self.events
            request.onProgress = { progress in
                events.offer(
                    .progress(
                        index: index, bytesReceived: progress.bytesReceived, bytesExpected: progress.bytesExpected))
            }
        }
        do throws(HTTPError) {
            return .success(try await client.response(for: request))
        } catch {
            return .failure(error)
        }
    }

    /// Verifies and processes `body` holding a processing slot; `nil` when cancelled while waiting for one.
    private func process(
        _ body: Data, url: URL, contentType: String?, digester: BodyDigester?
    ) async -> Result<ProcessedImage, DownloadError>? {
        let options = self.options
        return await processors.withSlot {
            do throws(DownloadError) {
                return .success(
                    try ProcessedImage.make(
                        from: body, url: url, processing: options.processing, outputEncoding: options.outputEncoding,
                        alphaOutputEncoding: options.alphaOutputEncoding,
                        animation: options.animatedThumbnailStep.flatMap { step in
                            options.animationEncoding.map { (step, $0) }
                        },
                        keepsOriginal: options.keepsOriginal, decodeOptions: options.decodeOptions,
                        verifiesByDecoding: options.verifiesByDecoding, bodyDigest: digester,
                        contentType: contentType))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Hashes and names the processed file, has ``fileWork`` write it (and the original when kept), and makes
    /// the item's record, with the validators of `response`.
    ///
    /// Only the file calls go to ``fileWork``, whose few lanes do the folder's writes in turn: the hash was
    /// computed before (streamed with the body, or of the encoded output), so a lane never waits on the CPU.
    /// A refresh's new file replaces the stored one atomically (the writer's rename or link); when its name
    /// changed (another format, a `{sha256}` template) the old file is removed once the new one is in place.
    private func store(
        _ image: ProcessedImage, job: ItemJob, response: Response<Data>, attempts: ItemAttempts
    ) async -> ItemOutcome {
        await store(
            image, job: job, httpStatus: response.statusCode,
            validators: (response.headers["ETag"], response.headers["Last-Modified"]), attempts: attempts)
    }

    /// ``store(_:job:response:attempts:)`` with the answer's status and validators given as they are.
    private func store(
        _ image: ProcessedImage, job: ItemJob, httpStatus: Int?, validators: (etag: String?, lastModified: String?),
        attempts: ItemAttempts
    ) async -> ItemOutcome {
        let digest = image.sha256.hexString
        let name = job.pattern.render(sha256: digest, fileExtension: image.format.fileExtension)
        var record = ManifestRecord(
            url: job.item.url.absoluteString, name: name, status: .ok, httpStatus: httpStatus,
            bytes: image.data.count, sha256: digest, width: image.width, height: image.height,
            format: image.format.rawValue, attempts: attempts.count, warnings: image.warnings.map(\.codeAndMessage),
            etag: validators.etag, lastModified: validators.lastModified, recipe: options.recipe)
        let flushes = options.fileSync == .eachFile
        let directory = options.outputDirectory
        let writer = self.writer
        let pattern = job.pattern
        let fingerprint = URLFingerprint(job.item.url)
        // The one name a new file may replace: the item's own (see ItemJob.ownName), or the stored file a
        // refresh revalidated. A content-addressed name holds the same bytes whoever writes it.
        let ownName = pattern.isContentAddressed ? name : job.ownName ?? job.stored?.name
        let published: Result<String, DownloadError> = await fileWork.run {
            do throws(DownloadError) {
                let published = try Self.publish(
                    image, named: name, pattern: pattern, replacing: ownName, digest: digest, writer: writer,
                    in: directory, flushes: flushes
                ) { candidate in
                    // Another URL's recorded name, its file missing just now, is still that URL's.
                    job.recorded.isEmpty
                        || job.recorded.allows(
                            FileNamePattern(literalName: candidate).collisionFingerprint, to: fingerprint)
                }
                if let stored = job.stored?.name, stored != published {
                    Self.remove(stored, in: directory)
                }
                // A refresh's kept original may come in another format now: the old one's extension goes.
                if let stored = job.stored?.name, let original = image.original {
                    let kept = FileNameSanitizer.stem(of: published) + ".original." + original.format.fileExtension
                    for format in ImageFormat.all {
                        let stale = FileNameSanitizer.stem(of: stored) + ".original." + format.fileExtension
                        if stale != kept { Self.remove(stale, in: directory) }
                    }
                }
                return .success(published)
            } catch {
                return .failure(error)
            }
        }
        let failure: DownloadError?
        switch published {
        case .success(let published):
            record.name = published
            failure = nil
        case .failure(let error):
            failure = error
        }
        record.elapsed = attempts.elapsedSeconds
        guard let error = failure else {
            if job.redo { return .redone(record) }
            return job.stored == nil ? .finished(record) : .replaced(record)
        }
        // A refresh that could not write keeps the earlier file (never touched by a failed atomic write).
        var failed = job.stored?.record(url: job.item.url, status: .failed, httpStatus: httpStatus) ?? record
        failed.status = .failed
        if job.stored == nil {
            failed.name = nil
            failed.bytes = nil
            failed.sha256 = nil
            failed.etag = nil
            failed.lastModified = nil
        }
        failed.attempts = attempts.count
        failed.elapsed = attempts.elapsedSeconds
        failed.error = error.description
        failed.errorKind = error.shortName
        return .diskError(failed, error)
    }
}

extension ItemRunner {
    /// How many suffixed names a publish tries before giving up on a folder that has them all.
    static let publishAttempts = 1000

    /// Writes `image` (and its kept original) under `name`, or, when another file already has that name, under
    /// the pattern's next suffix that `isFree` allows and no file has, and returns the name used. Only `ownName` (and its original) is ever
    /// replaced; a file already holding exactly the bytes to write (this item's file from a run killed
    /// before its record was written) is taken as written.
    static func publish(
        _ image: ProcessedImage, named name: String, pattern: FileNamePattern, replacing ownName: String?,
        digest: String, writer: any DownloadFileWriting, in directory: URL, flushes: Bool,
        mayTake isFree: (String) -> Bool = { _ in true }
    ) throws(DownloadError) -> String {
        if try place(image, named: name, replacing: name == ownName, writer: writer, in: directory, flushes: flushes) {
            return name
        }
        for number in 2...publishAttempts {
            let candidate = pattern.suffixed(number).render(sha256: digest, fileExtension: image.format.fileExtension)
            let replaces = candidate == ownName
            guard replaces || isFree(candidate) else { continue }
            if try place(image, named: candidate, replacing: replaces, writer: writer, in: directory, flushes: flushes)
            {
                return candidate
            }
        }
        throw .write(path: directory.path + "/" + name, operation: "find a free name for", code: EEXIST)
    }

    /// Writes `image` (and its kept original) as `name`, over what is there when `replacing`, else only
    /// where nothing is or a file holds exactly the bytes; `false` (and nothing of this item left) when
    /// the name or its original's is taken.
    private static func place(
        _ image: ProcessedImage, named name: String, replacing: Bool, writer: any DownloadFileWriting,
        in directory: URL, flushes: Bool
    ) throws(DownloadError) -> Bool {
        var wroteOriginal = false
        var originalName: String?
        if let original = image.original {
            let kept = FileNameSanitizer.stem(of: name) + ".original." + original.format.fileExtension
            if replacing {
                try writer.write(original.data, named: kept, in: directory, flushes: flushes)
            } else {
                wroteOriginal = try writer.writeNew(original.data, named: kept, in: directory, flushes: flushes)
                guard wroteOriginal || holds(original.data, named: kept, in: directory) else { return false }
            }
            originalName = kept
        }
        if replacing {
            try writer.write(image.data, named: name, in: directory, flushes: flushes)
            return true
        }
        if try writer.writeNew(image.data, named: name, in: directory, flushes: flushes)
            || holds(image.data, named: name, in: directory)
        {
            return true
        }
        // The original went in under a name that turned out not to be this item's: it goes with it.
        if wroteOriginal, let originalName { remove(originalName, in: directory) }
        return false
    }

    /// Whether `name` in `directory` is a regular file (not followed through a link) holding exactly `data`.
    static func holds(_ data: Data, named name: String, in directory: URL) -> Bool {
        let descriptor = open(directory.path + "/" + name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) == data.count
        else { return false }
        var buffer = [UInt8](repeating: 0, count: min(max(data.count, 1), 1 << 20))
        var offset = 0
        while offset < data.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0, offset + count <= data.count,
                data[data.startIndex + offset..<data.startIndex + offset + count].elementsEqual(buffer[..<count])
            else { return false }
            offset += count
        }
        return true
    }
}

/// One transfer's answer, with the digest its body got on the way in (when it is stored as it came).
private struct Fetched: Sendable {
    /// The response or the failure.
    var result: Result<Response<Data>, HTTPError>
    /// What saw the body arrive, if anything.
    var digester: BodyDigester?
    /// The `X-Robots-Tag` opt-out that stopped the transfer at its head, if one did.
    var noAIDirective: String?
}

/// What one attempt came to.
private enum AttemptResult: Sendable {
    /// The item is settled: stored, failed for good, or cancelled.
    case settled(ItemOutcome)
    /// The attempt failed with an error another attempt may not have, after `retryAfter` if the server said so.
    case retryable(DownloadError, retryAfter: Duration?)
}

/// The clocks and counters of one item across its attempts.
///
/// The clocks start when the first transfer gets its slot: time queued behind other items never counts.
struct ItemAttempts: Sendable {
    /// The item's URL.
    let url: URL
    /// When the first transfer got its slot.
    var started = ContinuousClock.now
    /// When the item must be done, if it has a deadline and its first transfer started.
    var deadline: ContinuousClock.Instant?
    /// Transfers made.
    var count = 0
    /// The last HTTP status received.
    var lastStatus: Int?

    /// Starts the clocks, with `limit` from now as the deadline.
    mutating func start(deadline limit: Duration?) {
        started = ContinuousClock.now
        deadline = limit.map { started + $0 }
    }

    /// The time left before the deadline, or `nil` without one.
    var remaining: Duration? { deadline.map { $0 - ContinuousClock.now } }

    /// Whether the deadline has passed.
    var isPastDeadline: Bool { deadline.map { $0 <= ContinuousClock.now } ?? false }

    /// Seconds since the clocks started.
    var elapsedSeconds: Double { (ContinuousClock.now - started).secondsValue }
}
