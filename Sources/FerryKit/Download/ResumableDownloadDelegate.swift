import Foundation
import Synchronization

/// `ResumableDownloadDelegate` writes a download to `NAME.part`, checkpoints it, resumes it
/// from a ``ResumeData`` with validated ranges, and gives it its final name only when complete.
///
/// Resume: the `.part` is reopened without following symlinks and truncated to the durable
/// offset; the request carries `Range: bytes=N-` and `If-Range`. Only a 206 whose
/// Content-Range starts at N with the recorded total is appended to. A 200 restarts from zero
/// (never appends). A 416 completes the file when `*/LEN` equals its length, else asks the
/// driver for a fresh start (``requestsRestart``). A 206 that does not match is rejected and the
/// `.part` is left as it was.
///
/// Checkpoints: about every ``DownloadPolicy/checkpointInterval`` (and when the transfer stops
/// for any reason) the data is synchronized (`fdatasync`) and only then is the durable offset
/// handed to the `checkpoint` callback, on the engine thread.
///
/// Completion: length check, checksum check (the digest is computed as bytes are written;
/// after a resume the prefix on disk is hashed first), `fdatasync`, then the final name
/// (`name.1.ext` when taken, unless overwriting). A checksum mismatch removes the `.part`.
///
/// Mutable state is confined to the engine thread, which runs every callback but the last
/// `didCompleteWith` (see `TaskDelegate`); only ``requestsRestart`` is read from other threads.
public final class ResumableDownloadDelegate: TaskDelegate, @unchecked Sendable {
    /// Where the file goes (the `.part` always uses this name; Content-Disposition may change the final one).
    public let destination: DownloadDestination
    /// Checkpoints, partial files, checksum and naming.
    public let policy: DownloadPolicy
    /// What this attempt resumes from; `nil` starts from zero.
    public let resumeFrom: ResumeData?
    private let checkpoint: @Sendable (ResumeData) -> Void
    private let sourcesFound: @Sendable (MetalinkHTTP) -> Void
    /// The whole-file hash checked before the name: the policy's, else the first response's
    /// digest (`policy.readsMetalinkHTTP`).
    private var expected: ExpectedChecksum?
    private var readMetalinkHTTP = false
    private let clock: any MonotonicClock
    private let restart = Atomic<Bool>(false)

    private var file: PartialFile?
    /// The `.part` this download uses: `NAME.part`, or the next free name when another's
    /// `.part` is there (`DownloadDestination.partialFilePath(for:)`); chosen once per attempt.
    private lazy var partialFilePath = destination.partialFilePath(for: policy.owner, resuming: resumeFrom?.canResume == true)
    /// The engine's unnamed files made ahead, taken from the task at the response.
    private var reserve: UnnamedFileReserve?
    /// The validators, total and URL of the bytes in `file`, once a response was accepted.
    private var current: ResumeData?
    private var resumedOffset: Int64?
    private var startError: FerryError?
    private var hasher: ChecksumHasher?
    private var errorBody = Data()
    private var alreadyComplete = false
    private var lastCheckpoint: Double = 0
    /// The length last reported durable.
    private var durableLength: Int64 = -1
    /// A checkpoint error raised between bytes, reported with the next bytes or at completion.
    private var tickError: FerryError?
    /// Whether the engine already made the file durable (`DurableCompletion`), and its error.
    private var synchronizedByEngine = false
    private var synchronizationError: FerryError?

    /// Makes a delegate for one attempt. `checkpoint` receives each durable ``ResumeData``
    /// (on the engine thread, after the data was synchronized); `sourcesFound` the mirrors and
    /// digest the first response named (`policy.readsMetalinkHTTP`), on the engine thread.
    public init(destination: DownloadDestination, policy: DownloadPolicy = DownloadPolicy(), resumeFrom: ResumeData? = nil,
                clock: any MonotonicClock = SystemClock(), checkpoint: @escaping @Sendable (ResumeData) -> Void = { _ in },
                sourcesFound: @escaping @Sendable (MetalinkHTTP) -> Void = { _ in }) {
        self.destination = destination
        self.policy = policy
        self.resumeFrom = resumeFrom
        self.clock = clock
        self.checkpoint = checkpoint
        self.sourcesFound = sourcesFound
        expected = policy.expectedChecksum
    }

    /// Whether this attempt found that the `.part` cannot be resumed (a 416 for another length)
    /// and the download must start over at once; the checkpoint was already reset to zero.
    public var requestsRestart: Bool { restart.load(ordering: .acquiring) }

    public var receivedBytes: Int64 { file?.length ?? resumedOffset ?? 0 }

    public var expectedReceivedBytes: Int64? {
        current?.totalLength ?? (resumedOffset != nil ? resumeFrom?.totalLength : nil)
    }

    // MARK: - Engine thread

    /// Reopens the `.part` for a resume and returns `Range` and `If-Range`; no headers when starting from zero.
    public func additionalHeaders(for task: TransferTask) -> HTTPHeaders {
        guard let resumeFrom, resumeFrom.canResume, let ifRange = resumeFrom.ifRange else { return [:] }
        do throws(FerryError) {
            guard let reopened = try PartialFile.reopen(atPath: partialFilePath, offset: resumeFrom.durableOffset, owner: policy.owner) else { return [:] }
            file = reopened
            resumedOffset = resumeFrom.durableOffset
        } catch {
            startError = error
            return [:]
        }
        var headers = HTTPHeaders()
        headers["Range"] = "bytes=\(resumeFrom.durableOffset)-"
        headers["If-Range"] = ifRange
        return headers
    }

    /// Fails the attempt before anything is sent when the `.part` could not be reopened.
    public func makeBodyStream(for task: TransferTask) throws(FerryError) -> (any BodyStream)? {
        if let startError { throw startError }
        return nil
    }

    public func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {
        reserve = task.unnamedFiles
        if policy.readsMetalinkHTTP, !readMetalinkHTTP, response.isSuccess {
            // One file from one connection: a digest checks it, the mirrors are handed on.
            readMetalinkHTTP = true
            let found = MetalinkHTTP(response: response)
            if !found.isEmpty {
                if expected == nil { expected = found.checksum }
                sourcesFound(found)
            }
        }
        // An encoded body (asked for with acceptsCompression) is saved decoded: its
        // Content-Length counts the encoded bytes, so the file's length is not known ahead.
        let contentLength = response.isSuccess && !Self.isEncoded(response) ? try Self.contentLength(of: response) : nil
        if let offset = resumedOffset, let resumeFrom {
            try accept(response, resumingAt: offset, from: resumeFrom, contentLength: contentLength)
        } else if response.isSuccess {
            let total = response.statusCode == 206 ? try Self.wholeRangeTotal(of: response) : nil
            try startFresh(with: response, contentLength: contentLength, total: total)
        }
    }

    /// `wholeRangeTotal(of:)` is the length of a 206 to a request that asked for no range,
    /// which is acceptable only when its Content-Range covers the whole file (`0-(N-1)/N`);
    /// any other range is an error, never a file saved without its head or tail.
    static func wholeRangeTotal(of response: HTTPResponse) throws(FerryError) -> Int64 {
        let header = response.headers["Content-Range"] ?? ""
        guard case .bytes(0, let last, let total?)? = ContentRange(parsing: header), last == total - 1 else {
            throw .integrity(.unexpectedRange("no range was asked for, the server answered 206 with \"\(header.printable)\""))
        }
        return total
    }

    public func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard !alreadyComplete, current != nil, let file else {
            if !alreadyComplete, errorBody.count < DownloadTaskDelegate.errorBodyLimit {
                errorBody.append(contentsOf: bytes.prefix(DownloadTaskDelegate.errorBodyLimit - errorBody.count))
            }
            return
        }
        if let tickError { throw tickError }
        try file.write(bytes)
        hasher?.update(bytes)
        try checkpointIfDue()
    }

    /// Checkpoints when the interval passed while no bytes arrived (a bursty or stalled server);
    /// an error is raised with the next bytes or at completion.
    public func taskDidTick(_ task: TransferTask) {
        guard tickError == nil, !alreadyComplete else { return }
        do throws(FerryError) {
            try checkpointIfDue()
        } catch {
            tickError = error
        }
    }

    public func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        do throws(FerryError) {
            let response = try result.get()
            if let tickError { throw tickError }
            if !alreadyComplete {
                guard response.isSuccess, current != nil else {
                    throw .validation(.unacceptableStatus(response.statusCode, reason: response.reasonPhrase, url: URLMasking.mask(response.url), body: errorBody))
                }
            }
            guard let file else { throw .file(.io(path: partialFilePath, errno: EBADF, operation: "write")) }
            if let total = current?.totalLength, file.length != total {
                throw file.length < total ? .integrity(.truncated(expected: total, received: file.length)) : .integrity(.lengthMismatch(expected: total, actual: file.length))
            }
            if let expected, let hasher {
                let actual = hasher.finalizeHex()
                if actual != expected.hex {
                    file.discard()
                    self.file = nil
                    checkpoint(ResumeData())
                    throw .integrity(.checksumMismatch(algorithm: expected.algorithm.rawValue, expected: expected.hex, actual: actual))
                }
            }
            if let synchronizationError { throw synchronizationError }
            if !synchronizedByEngine { try file.synchronize() }
            let length = file.length
            let keepsPartialName = policy.keepsPartialNameAfterCommit && !file.isUnnamed
            let finalURL = try file.commit(to: finalDestination(for: response), keepingPartialName: keepsPartialName)
            self.file = nil
            var transferred = TransferResult(response: response, fileURL: finalURL, bytesReceived: length, bytesSent: bytesSent)
            transferred.partialNameKept = keepsPartialName
            if keepsPartialName { transferred.partialFilePath = partialFilePath }
            return .success(transferred)
        } catch {
            stop()
            return .failure(error)
        }
    }

    // MARK: - Helpers

    private func accept(_ response: HTTPResponse, resumingAt offset: Int64, from resumeFrom: ResumeData, contentLength: Int64?) throws(FerryError) {
        let rangeHeader = response.headers["Content-Range"] ?? ""
        switch response.statusCode {
        case 206:
            // The validators first: a server that ignores If-Range answers 206 for a file that
            // changed, and only the reply's own ETag / Last-Modified tell.
            if let changed = Self.changedValidator(of: response, comparedWith: resumeFrom) {
                try startOver(because: changed)
            }
            guard case .bytes(let first, let last, let total?)? = ContentRange(parsing: rangeHeader), first == offset,
                  last == total - 1, resumeFrom.totalLength.map({ $0 == total }) ?? true else {
                throw .integrity(.resumeRejected("asked for bytes \(offset)- of \(resumeFrom.totalLength.map(String.init) ?? "?"), the server sent \"\(rangeHeader.printable)\"; the partial file was kept (delete \(partialFilePath.printable) to start over)"))
            }
            if let contentLength, contentLength != last - first + 1 {
                throw .integrity(.invalidLength("Content-Length \(contentLength) with Content-Range \(rangeHeader.printable)"))
            }
            var accepted = resumeFrom
            accepted.finalURL = response.url
            accepted.totalLength = total
            current = accepted
            durableLength = offset
            lastCheckpoint = clock.now()
            if let expected, let file {
                var prefixHasher = ChecksumHasher(algorithm: expected.algorithm)
                try file.readPrefix(offset) { prefixHasher.update($0) }
                hasher = prefixHasher
            }
        case 416:
            if case .unsatisfied(let total)? = ContentRange(parsing: rangeHeader), total == offset, resumeFrom.totalLength.map({ $0 == total }) ?? true {
                alreadyComplete = true
                var complete = resumeFrom
                complete.totalLength = total
                current = complete
                if let expected, let file {
                    var prefixHasher = ChecksumHasher(algorithm: expected.algorithm)
                    try file.readPrefix(offset) { prefixHasher.update($0) }
                    hasher = prefixHasher
                }
                return
            }
            try startOver(because: "it answered \"\(rangeHeader.printable)\" with \(offset) bytes on disk")
        case 200..<300:
            try keepBytesIfDigestProves(response, resumingAt: offset, from: resumeFrom, contentLength: contentLength)
            // The file changed or ranges are not supported: start over, never append.
            file?.close()
            file = nil
            resumedOffset = nil
            try startFresh(with: response, contentLength: contentLength)
        default:
            break  // An error page: the .part stays as it is.
        }
    }

    /// `keepBytesIfDigestProves(_:resumingAt:from:contentLength:)` handles a whole reply to a
    /// resume whose validators differ (a new link, a mirror: their ETags differ) that proves it
    /// serves the same file: its digest (Metalink/HTTP) is the one the file must have, its
    /// length is the recorded one and it takes ranges. The bytes on disk are then kept under
    /// its validators and the attempt ends, to resume from it at once with `If-Range`.
    private func keepBytesIfDigestProves(_ response: HTTPResponse, resumingAt offset: Int64, from resumeFrom: ResumeData,
                                         contentLength: Int64?) throws(FerryError) {
        guard policy.readsMetalinkHTTP, response.statusCode == 200, let expected, let total = resumeFrom.totalLength,
              contentLength == total, response.headers["Accept-Ranges"]?.lowercased().contains("bytes") == true,
              policy.expectedChecksum == expected, MetalinkHTTP(response: response).checksum == expected else { return }
        let proven = ResumeData(response: response, totalLength: total, durableOffset: offset)
        guard proven.ifRange != nil else { return }
        current = proven
        throw .transport(.connectionDropped("\(URLMasking.mask(response.url)) serves the same file (its \(expected.algorithm.rawValue) digest matches): its \(offset) bytes are kept"))
    }

    /// `changedValidator(of:comparedWith:)` says how a 206's validators differ from the
    /// recorded ones (the strong ETag when one was recorded, else Last-Modified; a validator
    /// missing from the reply counts as changed); `nil` when they match.
    static func changedValidator(of response: HTTPResponse, comparedWith recorded: ResumeData) -> String? {
        if let etag = recorded.etag {
            let reply = response.headers["ETag"].flatMap(ResumeData.strongETag)
            return reply == etag ? nil : "ETag \(reply?.printable ?? "missing"), was \(etag.printable)"
        }
        if let lastModified = recorded.lastModified {
            let reply = response.headers["Last-Modified"]?.trimmingBlanks()
            return reply == lastModified ? nil : "Last-Modified \(reply?.printable ?? "missing"), was \(lastModified.printable)"
        }
        return nil
    }

    /// `startOver(because:)` forgets the bytes on disk (the journal first) and ends the attempt
    /// asking for a fresh start (``requestsRestart``).
    private func startOver(because why: String) throws(FerryError) -> Never {
        checkpoint(ResumeData())
        restart.store(true, ordering: .releasing)
        throw .integrity(.changedOnServer(why))
    }

    private func startFresh(with response: HTTPResponse, contentLength: Int64?, total: Int64? = nil) throws(FerryError) {
        let fresh = ResumeData(response: response, totalLength: response.statusCode == 200 ? contentLength : total, durableOffset: 0)
        // The journal forgets the old bytes before they are destroyed. When it trusts no byte
        // yet (a first attempt) there is nothing to forget: no write, which matters when
        // thousands of small files start one after another.
        if let resumeFrom, resumeFrom.durableOffset > 0 {
            checkpoint(fresh)
        }
        durableLength = 0
        file = try makeFile(totalLength: fresh.totalLength)
        current = fresh
        lastCheckpoint = clock.now()
        hasher = expected.map { ChecksumHasher(algorithm: $0.algorithm) }
    }

    /// `makeFile(totalLength:)` creates the file a fresh start writes to: an unnamed one when
    /// the policy has a `CommitMark`, nothing was ever resumable and the length is known and
    /// small (see `CommitMark`), else the `.part`. An unnamed file whose bytes fit in memory is
    /// made only when they are written, off the engine thread (`PartialFile.deferredUnnamed`).
    private func makeFile(totalLength: Int64?) throws(FerryError) -> PartialFile {
        if let mark = policy.commitMark, resumeFrom == nil, let totalLength, totalLength <= CommitMark.unnamedFileLimit,
           !destination.overwrite, !policy.usesContentDisposition {
            let path = destination.filePath(named: destination.fileName)
            if let reserve, let deferred = PartialFile.deferredUnnamed(standingFor: path, mark: mark, reserve: reserve, length: totalLength) {
                return deferred
            }
            if let unnamed = PartialFile.createUnnamed(standingFor: path, mark: mark, reserve: reserve) {
                unnamed.holdBytes(expecting: totalLength)
                return unnamed
            }
        }
        return try PartialFile.create(atPath: partialFilePath, owner: policy.owner)
    }

    /// Checkpoints when periodic checkpoints are on, the interval passed and new bytes were
    /// written; never for an unnamed file (its bytes cannot be resumed).
    private func checkpointIfDue() throws(FerryError) {
        guard let interval = policy.effectiveCheckpointInterval, let file, !file.isUnnamed, current != nil,
              file.length > durableLength else { return }
        let now = clock.now()
        guard now - lastCheckpoint >= interval else { return }
        try checkpointNow()
        lastCheckpoint = now
    }

    /// Synchronizes the `.part` and reports its length as durable.
    private func checkpointNow() throws(FerryError) {
        guard let file, var data = current else { return }
        try file.synchronize()
        data.durableOffset = file.length
        durableLength = file.length
        checkpoint(data)
    }

    /// Ends a failed or cancelled attempt: checkpoint and keep the `.part`, or remove it.
    private func stop() {
        guard let file else { return }
        if policy.keepsPartialFile, !file.isUnnamed {
            if !alreadyComplete { try? checkpointNow() }
            file.close()
        } else {
            file.discard()
            checkpoint(ResumeData())
        }
        self.file = nil
    }

    private func finalDestination(for response: HTTPResponse) -> DownloadDestination {
        guard policy.usesContentDisposition,
              let name = response.headers["Content-Disposition"].flatMap(ContentDisposition.init(parsing:))?.safeFileName else { return destination }
        var chosen = destination
        chosen.fileName = name
        return chosen
    }

    /// Whether the body comes with a content coding (gzip, br, ...) libcurl decodes.
    static func isEncoded(_ response: HTTPResponse) -> Bool {
        guard let coding = response.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return !coding.isEmpty && coding != "identity"
    }

    /// Content-Length when present; a present but invalid one (negative, not a number) is an error.
    static func contentLength(of response: HTTPResponse) throws(FerryError) -> Int64? {
        guard let text = response.headers["Content-Length"] else { return nil }
        guard let value = response.expectedContentLength, text.trimmingBlanks().utf8.count <= 18 else {
            throw .integrity(.invalidLength("Content-Length \"\(text)\""))
        }
        return value
    }
}

extension ResumableDownloadDelegate: DurableCompletion {
    var fileAwaitingSync: PartialFile? { current != nil ? file : nil }

    func didSynchronize(_ error: FerryError?) {
        synchronizedByEngine = true
        synchronizationError = error
    }
}
