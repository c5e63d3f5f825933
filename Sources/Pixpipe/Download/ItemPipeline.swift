import Foundation

/// Takes one item from its resume check through download, verification, processing and the atomic write.
///
/// Runs in the item's own child task, never on the coordinator. The transfer holds a network slot
/// (global and per host) only while bytes move; decoding and encoding hold a processing slot (one per
/// core), so downloads continue while other items are processed. One retry budget covers HTTP failures
/// and bodies that fail to decode as truncated or corrupt, all inside the item's deadline.
struct ItemPipeline: Sendable {
    let options: DownloadOptions
    let client: HTTPClient
    let network: SlotScheduler
    let processors: SlotScheduler
    let writer: any DownloadFileWriting
    let fileWork: BlockingWorkQueue
    let events: EventChannel

    /// Runs `job` to its outcome.
    func run(_ job: ItemJob) async -> ItemOutcome {
        if Task.isCancelled { return .cancelled }
        if let skipped = resumeSkip(job) { return .skipped(skipped) }
        let url = job.item.url
        // The clocks start when the first transfer gets its slot: time queued behind other items never counts.
        var started = ContinuousClock.now
        var deadline: ContinuousClock.Instant?
        let policy = options.retryPolicy
        var attempts = 0
        var lastStatus: Int?
        func failure(_ error: DownloadError) -> ItemOutcome {
            if Task.isCancelled { return .cancelled }
            return .finished(
                ManifestRecord(
                    url: url.absoluteString, status: .failed, httpStatus: lastStatus, attempts: attempts,
                    elapsed: (ContinuousClock.now - started).secondsValue, error: error.description,
                    errorKind: error.kind))
        }
        while true {
            if let deadline, deadline <= ContinuousClock.now, let limit = options.itemDeadline {
                return failure(.deadlineExceeded(limit, url: url))
            }
            let hostKey = "\(url.host ?? ""):\(url.port ?? -1)"
            let isFirst = attempts == 0
            guard
                let fetched = await network.withSlot(
                    key: hostKey,
                    {
                        if isFirst {
                            started = ContinuousClock.now
                            deadline = options.itemDeadline.map { started + $0 }
                            await events.send(.started(index: job.index, url: url))
                        }
                        let remaining = deadline.map { $0 - ContinuousClock.now }
                        return await fetch(url, index: job.index, remaining: remaining)
                    })
            else { return .cancelled }
            attempts += 1
            var retryAfter: Duration?
            let error: DownloadError
            switch fetched {
            case .failure(let fetchError):
                if fetchError.isCancellation || Task.isCancelled { return .cancelled }
                error = .fetch(fetchError)
                guard policy.shouldRetry(fetchError, method: .get, attempt: attempts) else { return failure(error) }
            case .success(let response) where !(200..<300).contains(response.statusCode):
                lastStatus = response.statusCode
                let prefix = String(decoding: response.value.prefix(FetchError.bodyPrefixLength), as: UTF8.self)
                let fetchError = FetchError.httpStatus(code: response.statusCode, url: response.url, bodyPrefix: prefix)
                error = .fetch(fetchError)
                guard policy.shouldRetry(fetchError, method: .get, attempt: attempts) else { return failure(error) }
                retryAfter = response.headers["Retry-After"].flatMap { RetryAfter.delay(from: $0) }
            case .success(let response):
                lastStatus = response.statusCode
                guard let processed = await process(response.value, url: url) else { return .cancelled }
                switch processed {
                case .success(let image):
                    let status = response.statusCode
                    return await fileWork.run { [self, attempts, started] in
                        store(image, job: job, status: status, attempts: attempts, started: started)
                    }
                case .failure(let processingError):
                    error = processingError
                    guard processingError.isRetryableContent, attempts < policy.maxAttempts else {
                        return failure(error)
                    }
                }
            }
            var delay = policy.delay(afterAttempt: attempts, retryAfter: retryAfter)
            if let deadline {
                let left = deadline - ContinuousClock.now
                // Waiting past the deadline would only end in a timeout: report the real failure instead.
                guard delay < left else { return failure(error) }
                delay = min(delay, left)
            }
            do {
                try await Task.sleep(for: delay)
            } catch {
                return .cancelled
            }
        }
    }

    /// Every status code, built once (not per request).
    private static let everyStatus = Set(100..<600)

    /// One transfer; every status is accepted here so the pipeline can read `Retry-After` itself.
    private func fetch(_ url: URL, index: Int, remaining: Duration?) async -> Result<Response<Data>, FetchError> {
        var request = Request<Data>(url: url)
        for (name, value) in options.headers { request.headers[name] = value }
        request.acceptableStatusCodes = Self.everyStatus
        request.acceptableContentTypes = nil
        request.retryPolicy = RetryPolicy.none
        request.timeout = remaining.map { min(options.timeout, $0) } ?? options.timeout
        let events = self.events
        request.onProgress = { progress in
            events.offer(
                .progress(index: index, receivedBytes: progress.bytesReceived, expectedBytes: progress.bytesExpected))
        }
        do throws(FetchError) {
            return .success(try await client.response(for: request))
        } catch {
            return .failure(error)
        }
    }

    /// Verifies and processes `body` holding a processing slot; `nil` when cancelled while waiting for one.
    private func process(_ body: Data, url: URL) async -> Result<ProcessedImage, DownloadError>? {
        let options = self.options
        return await processors.withSlot(key: "") {
            do throws(DownloadError) {
                return .success(
                    try ProcessedImage.make(
                        from: body, url: url, processing: options.processing, keepsOriginal: options.keepsOriginal,
                        decodeOptions: options.decodeOptions, verifiesByDecoding: options.verifiesByDecoding))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Writes the processed file (and the original when kept) and makes the item's record; blocking, so it
    /// runs on ``fileWork``.
    private func store(
        _ image: ProcessedImage, job: ItemJob, status: Int, attempts: Int, started: ContinuousClock.Instant
    ) -> ItemOutcome {
        let digest = SHA256.hash(image.data).hexString
        let name = job.pattern.render(sha256: digest, fileExtension: image.format.fileExtension)
        var record = ManifestRecord(
            url: job.item.url.absoluteString, name: name, status: .ok, httpStatus: status, bytes: image.data.count,
            sha256: digest, width: image.width, height: image.height, format: image.format.rawValue,
            attempts: attempts)
        let flushes = options.fileSync == .eachFile
        do throws(DownloadError) {
            if let original = image.original {
                let originalName = FileNameSanitizer.stem(of: name) + ".original." + original.format.fileExtension
                try writer.write(original.data, named: originalName, in: options.outputDirectory, flushes: flushes)
            }
            try writer.write(image.data, named: name, in: options.outputDirectory, flushes: flushes)
        } catch {
            record.status = .failed
            record.name = nil
            record.bytes = nil
            record.sha256 = nil
            record.error = error.description
            record.errorKind = error.kind
            record.elapsed = (ContinuousClock.now - started).secondsValue
            return .diskError(record, error)
        }
        record.elapsed = (ContinuousClock.now - started).secondsValue
        return .finished(record)
    }

    /// The skip record when an earlier run already settled the item, per ``DownloadOptions/resume``.
    private func resumeSkip(_ job: ItemJob) -> ManifestRecord? {
        guard options.resume != .redoAll, let prior = job.prior else { return nil }
        let url = job.item.url.absoluteString
        switch prior.status {
        case .ok:
            guard let name = prior.name, let sha256 = prior.sha256,
                let data = FileManager.default.contents(
                    atPath: options.outputDirectory.appendingPathComponent(name).path),
                SHA256.hash(data).hexString == sha256
            else { return nil }
            return ManifestRecord(
                url: url, name: name, status: .skipped, bytes: data.count, sha256: sha256,
                error: "already stored by an earlier run", errorKind: "already-done")
        case .failed:
            // Failures caused by the run itself (stopped, disk) say nothing about the item: always redo them.
            let isItemFailure = prior.errorKind != "cancelled" && prior.errorKind != "write"
            guard options.resume == .skipCompleted, isItemFailure else { return nil }
            return ManifestRecord(
                url: url, status: .skipped, error: "failed in an earlier run (retry with retryFailed)",
                errorKind: "already-failed")
        case .skipped:
            return nil
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
