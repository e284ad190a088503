import Foundation

/// The planning of a `SegmentedDownload` under its lock: where connections start, which range
/// a finished or crawling connection takes over, what a reply means, checkpoints and progress.
extension SegmentedDownload {
    // MARK: - Under the lock

    /// `resumePlan()` is the plan of recorded ranges, or of a single stream's durable prefix.
    func resumePlan() -> SegmentPlan? {
        guard let resumeFrom, resumeFrom.ifRange != nil, let total = resumeFrom.totalLength, total > 0 else { return nil }
        if !ranges.isEmpty { return SegmentPlan(total: total, minSplitSize: minSplitSize, ranges: ranges) }
        guard resumeFrom.durableOffset > 0, resumeFrom.durableOffset <= total else { return nil }
        return SegmentPlan(total: total, minSplitSize: minSplitSize,
                           ranges: [SegmentRange(start: 0, end: total, durableOffset: resumeFrom.durableOffset)])
    }

    /// Starts connections while fewer than allowed run and some range is left to take.
    ///
    /// Every range is claimed before any request goes out, so that each new connection asks
    /// for exactly the range it ends with: the server ends its reply there, and no byte past
    /// it is sent only to be thrown away (a request made before a later split would read on
    /// into the next range until it is cut).
    func fill(_ state: inout State, actions: inout Actions) {
        guard state.phase == .running, state.plan != nil else { return }
        let speeds = establishedSpeeds(state)
        // A connection younger than the grace has no speed yet: it counts as the others' mean.
        let mean = speeds.isEmpty ? 1 : speeds.values.reduce(0, +) / Double(speeds.count)
        var claimed: [(number: Int, source: Int)] = []
        while state.connections.count + claimed.count < state.maxConnections {
            let number = state.nextNumber + claimed.count
            // With several sources, each connection goes to one with room for it.
            let source = state.sources.count > 1 ? chooseSource(state, adding: claimed.map(\.source)) : nil
            if state.sources.count > 1, source == nil { break }
            let strict = usableSources(state) > 1
            guard state.plan?.claim(for: number, source: source ?? (pieceHashes == nil ? nil : 0), strict: strict, finishEstimate: { piece in
                Double(piece.remaining) / max(1, piece.owner.flatMap { speeds[$0] } ?? mean)
            }) != nil else { break }
            claimed.append((number, source ?? 0))
        }
        for (number, source) in claimed {
            guard let index = state.plan?.index(of: number), let piece = state.plan?[index] else { continue }
            open(&state, actions: &actions, range: (piece.next, piece.end - 1), number: number, source: source)
        }
    }

    /// `establishedSpeeds(_:)` are the speeds of the connections older than two seconds.
    func establishedSpeeds(_ state: State) -> [Int: Double] {
        let now = clock.now()
        return state.connections.filter { now - $0.value.started >= 2 }.mapValues { Double($0.bytes) / (now - $0.started) }
    }

    /// Stops a crawling connection whose range is too small to split once another could take
    /// it: below a third of the others' mean speed after five seconds.
    func takeOverCrawling(_ state: inout State, actions: inout Actions) {
        guard state.phase == .running, let plan = state.plan, state.connections.count < state.maxConnections,
              state.connections.count >= 1 else { return }
        let now = clock.now()
        let speeds = state.connections.mapValues { Double($0.bytes) / max(0.5, now - $0.started) }
        let mean = max(speeds.values.reduce(0, +) / Double(speeds.count), state.fastest)
        for (number, entry) in state.connections where now - entry.started > 5 && !entry.stoppedByUs {
            guard let index = plan.index(of: number), plan[index].remaining > 0,
                  plan[index].remaining < 2 * minSplitSize, (speeds[number] ?? 0) < mean / 3 else { continue }
            state.connections[number]?.stoppedByUs = true
            state.plan?.release(number)
            let takeover = state.nextNumber
            let newIndex = state.plan?.takeOver(index, by: takeover) ?? index
            if let piece = state.plan?[newIndex] {
                actions.cancel.append(entry.task)
                let source = state.sources.count > 1 ? chooseSource(state, adding: [], leaving: entry.source) ?? entry.source : entry.source
                state.plan?.setWriter(newIndex, source)
                open(&state, actions: &actions, range: (piece.next, piece.end - 1), source: source)
            }
            return
        }
    }

    /// Makes connection `number` (the next free one by default) for `range` (`nil`: the
    /// first request, without `Range`) from `source` (0: the request's URL).
    func open(_ state: inout State, actions: inout Actions, range: (Int64, Int64)?, number chosen: Int? = nil, source: Int = 0) {
        guard let face = state.face else { return }
        let number = chosen ?? state.nextNumber
        state.nextNumber = max(state.nextNumber, number + 1)
        var request = face.request
        if source > 0, source < state.sources.count {
            // A mirror: its own URL (the request's secrets stay with their origin).
            request = request.moved(to: state.sources[source].url)
        } else if let url = state.current?.finalURL, range != nil, url != request.url {
            request = request.moved(to: url)
        }
        request.usesOwnConnection = true
        // Connections opened together send their requests together.
        request.yieldsAtFirstBytes = range != nil
        // The connections share about 2 MiB of receive buffers (512 KiB each up to 4).
        request.receiveBufferSize = min(face.session.configuration.receiveBufferSize,
                                        max(64 << 10, (2 << 20) / connectionLimit))
        // The task's speed cap is shared: each connection gets its part of it.
        if let cap = face.request.maximumReceiveSpeed, cap > 0 {
            request.maximumReceiveSpeed = max(1, cap / Int64(connectionLimit))
        }
        request.headers.remove(name: "Accept-Encoding")
        // Every connection's bytes are the file's own at their offsets: never an encoding of it.
        request.acceptsCompression = false
        request.headers.remove(name: "Range")
        request.headers.remove(name: "If-Range")
        let ifRange = range == nil ? nil : source == 0 ? state.current?.ifRange : state.sources[source].ifRange
        let delegate = SegmentConnection(number: number, range: range, ifRange: ifRange, download: self)
        let task = face.session.makeTask(kind: .download, request: request, delegate: delegate)
        state.connections[number] = Connection(task: task, delegate: delegate, started: clock.now(), source: source)
        task.onFinish { [weak self] outcome in
            self?.connectionEnded(number, outcome: outcome)
        }
        actions.resume.append(task)
    }

    /// Checks a reply and decides what its bytes are for.
    func accept(_ response: HTTPResponse, on connection: SegmentConnection, state: inout State, actions: inout Actions) throws(FerryError) {
        let number = connection.number
        let contentLength = response.isSuccess ? try ResumableDownloadDelegate.contentLength(of: response) : nil
        guard let range = connection.range else {
            // The first request of a fresh start.
            guard response.isSuccess else {
                state.connections[number]?.refused = true
                state.connections[number]?.status = response
                return
            }
            let total = response.statusCode == 206 ? try ResumableDownloadDelegate.wholeRangeTotal(of: response) : contentLength
            let fresh = ResumeData(response: response, totalLength: total, durableOffset: 0)
            guard let path = state.partialFilePath else { throw .cancelled }
            state.file = try PartialFile.create(atPath: path, owner: policy.owner)
            state.current = fresh
            if let source = state.connections[number]?.source, source < state.sources.count { state.sources[source].ifRange = fresh.ifRange }
            state.response = response
            state.connections[number]?.accepted = true
            discoverSources(in: response, &state, actions: &actions)
            let ranges = response.headers["Accept-Ranges"]?.lowercased().contains("bytes") == true
            if let total, total > 0, ranges, fresh.ifRange != nil, connectionLimit > 1, total >= 2 * minSplitSize {
                // The first request reads on to the end of the file: it is replaced by one that asks
                // for exactly the first range, so that the server ends every reply where its range
                // ends (one more request; the bytes already in flight are not written).
                state.plan = SegmentPlan(total: total, minSplitSize: minSplitSize)
                if let entry = state.connections.removeValue(forKey: number) { actions.cancel.append(entry.task) }
                fill(&state, actions: &actions)
            } else {
                state.singleOffset = 0
            }
            return
        }
        guard let current = state.current, let total = current.totalLength else { throw .cancelled }
        let header = response.headers["Content-Range"] ?? ""
        if let source = state.connections[number]?.source, source > 0 {
            try acceptFromMirror(response, range: range, source: source, total: total, number: number, state: &state, actions: &actions)
            return
        }
        switch response.statusCode {
        case 206:
            if let changed = ResumableDownloadDelegate.changedValidator(of: response, comparedWith: current) {
                try startOver(&state, because: changed, actions: &actions)
            }
            guard case .bytes(let first, let last, let replyTotal?)? = ContentRange(parsing: header), replyTotal == total else {
                if case .bytes(_, _, let other?)? = ContentRange(parsing: header), other != total {
                    try startOver(&state, because: "length \(other), was \(total)", actions: &actions)
                }
                throw .integrity(.resumeRejected("asked for bytes \(range.first)-\(range.last) of \(total), the server sent \"\(header.printable)\""))
            }
            guard first == range.first, last == range.last, contentLength.map({ $0 == last - first + 1 }) ?? true else {
                throw .integrity(.resumeRejected("asked for bytes \(range.first)-\(range.last) of \(total), the server sent \"\(header.printable)\""))
            }
            state.connections[number]?.accepted = true
            if state.response == nil {
                state.response = response
                discoverSources(in: response, &state, actions: &actions)
            }
        case 200..<300:
            if let changed = ResumableDownloadDelegate.changedValidator(of: response, comparedWith: current) {
                try startOver(&state, because: changed, actions: &actions)
            }
            if let contentLength, contentLength != total {
                try startOver(&state, because: "length \(contentLength), was \(total)", actions: &actions)
            }
            if state.connections.count == 1 {
                // No range after all and nobody else: this connection fetches the file from zero.
                checkpoint(ResumeData(), [])
                try state.file?.truncate(to: 0)
                state.plan = nil
                state.singleOffset = 0
                state.response = response
                state.connections[number]?.accepted = true
            } else {
                state.connections[number]?.refused = true
                state.connections[number]?.status = response
                state.maxConnections = max(1, state.connections.count - 1)
                throw .integrity(.resumeRejected("the server answered \(response.statusCode) to a range request; going on with fewer connections"))
            }
        case 416:
            if case .unsatisfied(let other)? = ContentRange(parsing: header), other != total {
                try startOver(&state, because: "length \(other), was \(total)", actions: &actions)
            }
            state.connections[number]?.refused = true
            state.connections[number]?.status = response
        default:
            state.connections[number]?.refused = true
            state.connections[number]?.status = response
        }
    }

    /// The error of a connection whose reply was refused.
    func refusal(of entry: Connection, state: inout State) -> FerryError {
        guard let response = entry.status else { return .transport(.connectionDropped("the connection ended early")) }
        if response.isSuccess {
            return .integrity(.resumeRejected("the server answered \(response.statusCode) to a range request"))
        }
        return .validation(.unacceptableStatus(response.statusCode, reason: response.reasonPhrase, url: URLMasking.mask(response.url), body: state.errorBody))
    }

    /// The file changed on the server: forget every byte (the journal first), stop every
    /// connection, and end asking for a fresh start.
    func startOver(_ state: inout State, because why: String, actions: inout Actions) throws(FerryError) -> Never {
        checkpoint(ResumeData(), [])
        state.plan = nil
        state.current = nil
        let error = FerryError.integrity(.changedOnServer(why))
        stop(&state, because: error, actions: &actions)
        throw error
    }

    /// Stops every connection; the download ends with `error` once they all ended.
    func stop(_ state: inout State, because error: FerryError, actions: inout Actions) {
        guard state.phase != .stopping, state.phase != .finished else { return }
        state.phase = .stopping
        state.stopError = error
        for (number, entry) in state.connections {
            state.connections[number]?.stoppedByUs = true
            actions.cancel.append(entry.task)
        }
        if state.connections.isEmpty { actions.end = .failure(error) }
    }

    func checkpointIfDue(_ state: inout State) throws(FerryError) {
        guard let interval = policy.effectiveCheckpointInterval else { return }
        let now = clock.now()
        guard now - state.lastCheckpoint >= interval else { return }
        state.lastCheckpoint = now
        try checkpointNow(&state)
    }

    /// Writes what connection `number` gathered. When that fails, its range (or the single
    /// stream) is wound back to what was written, so that no checkpoint counts those bytes,
    /// and the download stops. Bytes of a file that changed on the server are dropped.
    func writeOut(_ gathered: CoalescedWrite, of number: Int, _ state: inout State, actions: inout Actions) {
        guard let file = state.file, state.current != nil else {
            gathered.discard()
            return
        }
        do throws(FerryError) {
            try gathered.flush(to: file)
        } catch {
            let lost = Int64(gathered.count)
            gathered.discard()
            if let offset = state.singleOffset {
                state.singleOffset = offset - lost
            } else if let index = state.plan?.index(of: number) {
                state.plan?.rewind(index, by: lost)
            }
            stop(&state, because: error, actions: &actions)
        }
    }

    /// Synchronizes the file, then records every range's durable end. What the connections
    /// gathered is written first: a failed write leaves it gathered and nothing recorded.
    func checkpointNow(_ state: inout State) throws(FerryError) {
        guard let file = state.file, var data = state.current else { return }
        for entry in state.connections.values { try entry.gathered?.flush(to: file) }
        if let plan = state.plan {
            guard plan.writtenBytes > plan.durableBytes else { return }
            try file.synchronize()
            state.plan?.markDurable()
            data.durableOffset = state.plan?.durableBytes ?? 0
            checkpoint(data, state.plan?.ranges ?? [])
            recordVerified(&state)
        } else if let offset = state.singleOffset, offset > 0, data.totalLength != nil {
            try file.synchronize()
            data.durableOffset = offset
            checkpoint(data, [])
        }
    }

    func progress(_ state: inout State, force: Bool) -> TransferProgress? {
        var snapshot = state.tracker.update(received: state.writtenBytes, expectedReceived: state.current?.totalLength, sent: 0,
                                            expectedSent: nil, now: clock.now(), force: force)
        snapshot?.connections = state.phase == .finished ? 0 : state.connections.count
        if state.sources.count > 1, snapshot != nil { snapshot?.sources = reports(state) }
        return snapshot
    }
}
