import Foundation
import Synchronization

/// `SegmentedDownload` fetches one file over several connections (`-x N`) into one `.part`,
/// validated on every connection, and gives it its final name when complete.
///
/// It is the delegate of a task it runs itself (`TransferDriver`): each connection is a
/// transfer of its own on the same session (so per-host limits count every connection),
/// speaking HTTP/1.1 on a connection of its own, without compression.
///
/// - A fresh start sends one request without `Range`. When its reply has a length, says
///   `Accept-Ranges: bytes` and carries a strong ETag or a Last-Modified, that request is
///   replaced by `connections` range requests, the file split first (each at the middle of
///   the largest range left, ``SegmentPlan``) so that every request asks for exactly the range
///   it ends with; otherwise the first connection fetches the file alone.
/// - Every other request asks `Range: bytes=a-b` with `If-Range`; only a 206 with exactly that
///   Content-Range, the same total and the same validators is written (`pwrite` at its
///   offset). A 200 with the same validators stops that connection (the download goes on
///   with fewer; with no other connection left, it starts over on this one); a validator or
///   total that differs means the file changed: the download starts over from zero.
/// - A connection that ends takes half of the range that would finish last; a crawling
///   connection whose range is too small to split is stopped and its range taken over.
/// - Checkpoints: about every ``DownloadPolicy/checkpointInterval`` the file is synchronized,
///   then every range's durable end goes to `checkpoint`; a resume continues every range
///   from its own durable end, with any number of connections.
/// - Completion: length, checksum over the whole file, `fdatasync`, final name (as
///   ``ResumableDownloadDelegate``).
///
/// All mutable state is in one lock (`LockedState`); callbacks come from the engine thread (bytes,
/// responses, ticks), the naming thread (a connection's end) and callers (pause, cancel).
public final class SegmentedDownload: TaskDelegate, TransferDriver, Sendable {
    /// `defaultMinSplitSize` is the smallest range split in two halves' worth, `1 MiB`.
    public static let defaultMinSplitSize: Int64 = 1 << 20
    /// `maximumConnections` is the most connections one download uses, `16`.
    public static let maximumConnections = 16

    public let destination: DownloadDestination
    public let policy: DownloadPolicy
    public let resumeFrom: ResumeData?
    let ranges: [SegmentRange]
    let connectionLimit: Int
    let minSplitSize: Int64
    let clock: any MonotonicClock
    let checkpoint: @Sendable (ResumeData, [SegmentRange]) -> Void
    /// The other sources of the file (mirrors), fetched from at once with the first.
    let mirrors: [URL]
    let pieceHashes: PieceHashes?
    let verifiedAtStart: Set<Int>
    let perSourceConnections: Int
    let piecesVerified: @Sendable (Set<Int>) -> Void
    /// `sourceNote` hears, in words, a source dropped and what the download does instead.
    let sourceNote: @Sendable (String) -> Void
    /// `sourcesFound` hears the mirrors and digest a response named (`readsMetalinkHTTP`).
    let sourcesFound: @Sendable (MetalinkHTTP) -> Void
    let state: LockedState<State>

    /// Makes a download using up to `connections` connections, resuming `ranges` (recorded
    /// with `resumeFrom`'s validators) or, without them, `resumeFrom`'s single-stream offset.
    /// `checkpoint` receives the validators and every range's durable end after each sync.
    ///
    /// With `mirrors`, ranges come from every source at once (the request's URL is the first;
    /// each source gets at most `perSourceConnections`); a source whose length differs, or that
    /// refuses the file, is dropped. With `pieceHashes`, every piece is checked as it completes
    /// (those in `verifiedPieces` were checked before the process ended); a corrupt piece is
    /// fetched again, from another source where there is one, and its source demoted (dropped
    /// after ``maximumBadPieces``). `piecesVerified` receives the checked pieces after each
    /// checkpoint, once their bytes are on disk; `sourceNote` hears each source dropped, in words.
    /// With `policy.readsMetalinkHTTP`, the first response's `Link: rel=duplicate` mirrors
    /// become sources when a hash can check them (its digest, the policy's, piece hashes), and
    /// `sourcesFound` hears what it named.
    public init(destination: DownloadDestination, policy: DownloadPolicy = DownloadPolicy(), resumeFrom: ResumeData? = nil,
                ranges: [SegmentRange] = [], connections: Int, minSplitSize: Int64 = defaultMinSplitSize,
                mirrors: [URL] = [], perSourceConnections: Int? = nil, pieceHashes: PieceHashes? = nil, verifiedPieces: Set<Int> = [],
                clock: any MonotonicClock = SystemClock(),
                checkpoint: @escaping @Sendable (ResumeData, [SegmentRange]) -> Void = { _, _ in },
                piecesVerified: @escaping @Sendable (Set<Int>) -> Void = { _ in },
                sourceNote: @escaping @Sendable (String) -> Void = { _ in },
                sourcesFound: @escaping @Sendable (MetalinkHTTP) -> Void = { _ in }) {
        self.mirrors = mirrors
        self.sourceNote = sourceNote
        self.sourcesFound = sourcesFound
        self.pieceHashes = pieceHashes
        verifiedAtStart = verifiedPieces
        self.piecesVerified = piecesVerified
        self.destination = destination
        self.policy = policy
        self.resumeFrom = resumeFrom
        self.ranges = ranges
        connectionLimit = min(max(1, connections), Self.maximumConnections)
        self.minSplitSize = max(1, minSplitSize)
        self.clock = clock
        self.checkpoint = checkpoint
        self.perSourceConnections = max(1, perSourceConnections ?? Self.maximumConnections)
        var initial = State(maxConnections: min(max(1, connections), Self.maximumConnections))
        initial.verified = verifiedPieces
        state = LockedState(initial)
    }

    // MARK: - State

    enum Phase: Equatable {
        case created, running, paused, stopping, finished
    }

    struct Connection {
        let task: TransferTask
        let delegate: SegmentConnection
        let started: Double
        var bytes: Int64 = 0
        var accepted = false
        /// The reply was refused (an error status, a 200 to a range): its bytes are not written.
        var refused = false
        var status: HTTPResponse?
        var stoppedByUs = false
        /// The bytes received and not yet written (made with the first of them).
        var gathered: CoalescedWrite?
        /// The index of the source it fetches from (0: the request's URL).
        var source = 0
    }

    struct State {
        var phase = Phase.created
        var face: TransferTask?
        var file: PartialFile?
        var partialFilePath: String?
        var current: ResumeData?
        var response: HTTPResponse?
        var plan: SegmentPlan?
        /// The write offset of a download fetched by one connection without ranges.
        var singleOffset: Int64?
        var connections: [Int: Connection] = [:]
        var nextNumber = 0
        var maxConnections: Int
        var lastCheckpoint: Double = 0
        var failures = 0
        /// Every connection was refused once and one was tried alone.
        var triedAlone = false
        var stopError: FerryError?
        var lastError: FerryError?
        var tracker = ProgressTracker()
        var sources: [SourceState] = []
        /// The pieces checked against their hashes.
        var verified: Set<Int> = []
        /// The checked pieces last handed to `piecesVerified`.
        var verifiedRecorded: Set<Int> = []
        /// Pieces found corrupt in this run.
        var badPieces = 0
        /// The best speed an ended connection had, bytes per second.
        var fastest: Double = 0
        var errorBody = Data()
        /// The whole-file hash checked before the name: the policy's, else a response's digest.
        var expected: ExpectedChecksum?
        /// Whether a response was read for Metalink/HTTP already.
        var readMetalinkHTTP = false

        init(maxConnections: Int) {
            self.maxConnections = maxConnections
        }

        var writtenBytes: Int64 { plan?.writtenBytes ?? singleOffset ?? 0 }
    }

    /// Work decided under the lock and done after it.
    struct Actions {
        var resume: [TransferTask] = []
        var cancel: [TransferTask] = []
        var progress: TransferProgress?
        var end: Result<Void, FerryError>?
        var notes: [String] = []
        var found: MetalinkHTTP?
    }

    // MARK: - TaskDelegate (the task itself never reaches the engine)

    public var receivedBytes: Int64 { state.withLock { $0.writtenBytes } }
    public var expectedReceivedBytes: Int64? { state.withLock { $0.current?.totalLength } }

    public func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {}
    public func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {}
    public func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        result.map { TransferResult(response: $0) }
    }

    // MARK: - TransferDriver

    func start(_ task: TransferTask) {
        task.transportDidStart()
        var actions = Actions()
        state.withLock { state in
            state.face = task
            state.expected = policy.expectedChecksum
            // The request's URL is the first source; a mirror that is the same URL is not another.
            let others = mirrors.filter { $0.absoluteString != task.request.url.absoluteString }
            state.sources = ([task.request.url] + others).map { SourceState(url: $0, cap: perSourceConnections) }
            state.phase = task.state == .paused ? .paused : .running
            state.lastCheckpoint = clock.now()
            let path = destination.partialFilePath(for: policy.owner, resuming: resumeFrom?.canResume == true || !ranges.isEmpty)
            state.partialFilePath = path
            do throws(FerryError) {
                if let resumed = resumePlan(),
                   let file = try PartialFile.reopenKeepingBytes(atPath: path, minimumLength: resumed.pieces.map(\.durable).max() ?? 0, owner: policy.owner) {
                    if file.length > resumed.total { try file.truncate(to: resumed.total) }
                    state.file = file
                    state.plan = resumed
                    state.current = resumeFrom
                    // Pieces written before the process ended and not known checked are checked now.
                    try verifyWrittenPieces(&state)
                    if state.plan?.isComplete == true, let resumeFrom {
                        // Every range was durable before the process ended: only the commit is left.
                        var headers = HTTPHeaders()
                        if let etag = resumeFrom.etag { headers["ETag"] = etag }
                        if let lastModified = resumeFrom.lastModified { headers["Last-Modified"] = lastModified }
                        state.response = HTTPResponse(url: resumeFrom.finalURL ?? task.request.url, statusCode: 200, headers: headers)
                        state.phase = .finished
                        actions.end = .success(())
                    } else {
                        fill(&state, actions: &actions)
                    }
                } else {
                    state.verified = []
                    if let resumeFrom, resumeFrom.durableOffset > 0 || !ranges.isEmpty {
                        checkpoint(ResumeData(), [])
                    }
                    open(&state, actions: &actions, range: nil)
                }
            } catch {
                state.stopError = error
                state.phase = .stopping
            }
            if state.phase == .stopping, state.connections.isEmpty { actions.end = .failure(state.stopError ?? .cancelled) }
        }
        perform(actions)
    }

    func pause(_ task: TransferTask) {
        let tasks = state.withLock { state -> [TransferTask] in
            guard state.phase == .running else { return [] }
            state.phase = .paused
            return state.connections.values.map(\.task)
        }
        for task in tasks { task.pause() }
    }

    func resume(_ task: TransferTask) {
        var actions = Actions()
        state.withLock { state in
            guard state.phase == .paused else { return }
            state.phase = .running
            actions.resume = state.connections.values.map(\.task)
            fill(&state, actions: &actions)
        }
        perform(actions)
    }

    func cancel(_ task: TransferTask) {
        var actions = Actions()
        state.withLock { state in
            guard state.phase != .finished else { return }
            stop(&state, because: .cancelled, actions: &actions)
        }
        perform(actions)
    }

    // MARK: - Connections (engine thread)

    func connection(_ connection: SegmentConnection, didReceive response: HTTPResponse) throws(FerryError) {
        var actions = Actions()
        let result = state.withLock { state -> Result<Void, FerryError> in
            guard state.phase == .running || state.phase == .paused, state.connections[connection.number] != nil else {
                return .failure(.cancelled)
            }
            do throws(FerryError) {
                try accept(response, on: connection, state: &state, actions: &actions)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        perform(actions)
        try result.get()
    }

    func connection(_ connection: SegmentConnection, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {
        var actions = Actions()
        let result = state.withLock { state -> Result<Void, FerryError> in
            guard var entry = state.connections[connection.number], state.phase != .stopping, state.phase != .finished else {
                return .failure(.cancelled)
            }
            guard entry.accepted, let file = state.file else {
                if entry.refused, state.errorBody.count < DownloadTaskDelegate.errorBodyLimit {
                    state.errorBody.append(contentsOf: bytes.prefix(DownloadTaskDelegate.errorBodyLimit - state.errorBody.count))
                }
                return .success(())
            }
            do throws(FerryError) {
                var done = false
                let gathered = entry.gathered ?? CoalescedWrite()
                entry.gathered = gathered
                if let offset = state.singleOffset {
                    try gathered.add(bytes, at: offset, to: file)
                    state.singleOffset = offset + Int64(bytes.count)
                    entry.bytes += Int64(bytes.count)
                } else if state.plan != nil, let index = state.plan?.index(of: connection.number), let piece = state.plan?[index] {
                    let count = min(Int64(bytes.count), piece.remaining)
                    if count > 0 {
                        try gathered.add(UnsafeRawBufferPointer(rebasing: bytes[0..<Int(count)]), at: piece.next, to: file)
                        state.plan?.advance(index, by: count)
                        entry.bytes += count
                        state.connections[connection.number] = entry
                        try verifyPieces(touching: piece.next..<(piece.next + count), &state, actions: &actions)
                        entry = state.connections[connection.number] ?? entry
                    }
                    done = count < Int64(bytes.count) || state.plan?.index(of: connection.number) == nil
                } else {
                    done = true
                }
                if done {
                    entry.stoppedByUs = true
                    try gathered.flush(to: file)
                }
                state.connections[connection.number] = entry
                try checkpointIfDue(&state)
                actions.progress = progress(&state, force: false)
                return done ? .failure(.cancelled) : .success(())
            } catch {
                state.connections[connection.number] = entry
                stop(&state, because: error, actions: &actions)
                return .failure(error)
            }
        }
        perform(actions)
        try result.get()
    }

    /// Checkpoints when the interval passed while no bytes arrived.
    func tick() {
        var actions = Actions()
        state.withLock { state in
            guard state.phase == .running || state.phase == .paused else { return }
            do throws(FerryError) {
                try checkpointIfDue(&state)
            } catch {
                stop(&state, because: error, actions: &actions)
            }
            takeOverCrawling(&state, actions: &actions)
        }
        perform(actions)
    }

    /// A connection's transfer ended (any thread).
    func connectionEnded(_ number: Int, outcome: Result<TransferResult, FerryError>) {
        var actions = Actions()
        state.withLock { state in
            guard let entry = state.connections.removeValue(forKey: number) else { return }
            if let gathered = entry.gathered { writeOut(gathered, of: number, &state, actions: &actions) }
            state.plan?.release(number)
            if state.phase == .stopping || state.phase == .finished {
                if state.connections.isEmpty, state.phase == .stopping { actions.end = .failure(state.stopError ?? .cancelled) }
                return
            }
            if state.singleOffset != nil {
                // The one connection of a download without ranges: its outcome is the download's.
                switch outcome {
                case .success:
                    if let total = state.current?.totalLength, total != state.singleOffset {
                        let received = state.singleOffset ?? 0
                        stop(&state, because: received < total ? .integrity(.truncated(expected: total, received: received)) : .integrity(.lengthMismatch(expected: total, actual: received)), actions: &actions)
                    } else if entry.accepted {
                        state.phase = .finished
                        actions.end = .success(())
                    } else {
                        stop(&state, because: refusal(of: entry, state: &state), actions: &actions)
                    }
                case .failure(let error):
                    stop(&state, because: entry.status != nil && !entry.accepted ? refusal(of: entry, state: &state) : error, actions: &actions)
                }
                return
            }
            let elapsed = clock.now() - entry.started
            state.fastest = max(state.fastest, Double(entry.bytes) / max(elapsed, 0.05))
            var failure: FerryError?
            if entry.refused {
                failure = refusal(of: entry, state: &state)
            } else if case .failure(let error) = outcome, !entry.stoppedByUs {
                failure = error
            }
            if state.sources.count > 1 {
                // Several sources: a failure counts against its source; the others go on.
                if let failure { state.lastError = failure }
                guard sourceEnded(entry, failure: failure, state: &state, actions: &actions) else {
                    stop(&state, because: state.lastError ?? .transport(.connectionDropped("no source could continue the download")), actions: &actions)
                    return
                }
                if state.current == nil, state.connections.isEmpty, state.phase == .running, let next = chooseSource(state, adding: []) {
                    // The first request failed on its source: it goes to the next one.
                    open(&state, actions: &actions, range: nil, source: next)
                    return
                }
            } else if let reason = failure {
                state.lastError = reason
                if entry.status != nil {
                    // The server refused this connection (a 503, a 200 to a range): it allows fewer.
                    state.maxConnections = max(1, state.connections.count)
                } else if entry.bytes == 0 {
                    state.failures += 1
                }
                var gaveUp = entry.status != nil ? state.connections.isEmpty : (!reason.isTransient || state.failures > 2 * connectionLimit)
                if gaveUp, entry.status != nil, !state.triedAlone, state.plan != nil {
                    // Every connection was refused; the first request, replaced at the start, may
                    // still have counted against the server's limit: one more try, alone.
                    state.triedAlone = true
                    state.maxConnections = 1
                    gaveUp = false
                }
                if gaveUp {
                    stop(&state, because: reason, actions: &actions)
                    return
                }
            }
            if state.plan?.isComplete == true {
                if state.connections.isEmpty {
                    state.phase = .finished
                    actions.end = .success(())
                }
                return
            }
            if state.phase == .running { fill(&state, actions: &actions) }
            if state.connections.isEmpty, state.phase == .running {
                stop(&state, because: state.lastError ?? .transport(.connectionDropped("no connection could continue the download")), actions: &actions)
            }
        }
        perform(actions)
    }

    // MARK: - After the lock

    func perform(_ actions: Actions) {
        for task in actions.cancel { task.cancel() }
        for task in actions.resume { task.resume() }
        for note in actions.notes { sourceNote(note) }
        if let found = actions.found { sourcesFound(found) }
        let face = state.withLock { $0.face }
        if let progress = actions.progress { face?.publish(progress: progress) }
        if let end = actions.end, let face {
            // The commit (hashing, sync, rename) runs off the engine and completion threads.
            DispatchQueue.global().async { [self] in
                finish(face, end)
            }
        }
    }

    /// Ends the download: commits the file, or keeps what is durable and reports the error.
    func finish(_ face: TransferTask, _ end: Result<Void, FerryError>) {
        let outcome = state.withLock { state -> Result<TransferResult, FerryError> in
            state.phase = .finished
            if let snapshot = progress(&state, force: true) { face.publish(progress: snapshot) }
            do throws(FerryError) {
                try end.get()
                return .success(try commit(&state))
            } catch {
                if let file = state.file {
                    if policy.keepsPartialFile, !file.isUnnamed, state.current != nil {
                        try? checkpointNow(&state)
                        file.close()
                    } else {
                        file.discard()
                        checkpoint(ResumeData(), [])
                    }
                    state.file = nil
                }
                return .failure(error)
            }
        }
        face.transportDidEnd()
        face.finish(outcome)
    }
}
