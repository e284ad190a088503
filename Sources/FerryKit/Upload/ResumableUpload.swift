import Foundation
import Synchronization

/// `ResumableUpload` sends one upload so that it survives what a download survives: a dropped
/// connection (it asks the server for its offset and sends the rest, in the same run), and the
/// end of the process (its ``UploadResumeData`` is in the ``UploadResumeStore`` before body
/// bytes go, and the next run with the same store asks the server and sends the rest).
///
/// Two protocols: the IETF httpbis resumable-upload draft (interop versions 3, 5, 6: the upload
/// is the request itself, offered with `Upload-Draft-Interop-Version`; a server that speaks it
/// answers `104 Upload Resumption Supported` with the upload's `Location` while the body is
/// still on its way; HEAD there tells the offset, PATCH appends) and tus 1.0 (POST creates the
/// upload, HEAD tells the offset, PATCH appends, DELETE ends it).
///
/// Never a spliced upload: an upload resumes only onto the same files (``UploadFileIdentity``)
/// and the same body length, and only at an offset the server states and the body has; a
/// server that forgot the upload (404, 410), or states an offset beyond the body, gets a new
/// upload (the old one ended where the protocol allows). Each such decision is told through
/// `note` in words, as "resuming upload at 6.2 GiB of 10 GiB".
///
/// A library user gives the session, the request (its body a file or a stream that can seek:
/// standard input cannot resume) and a store:
///
/// ```swift
/// let upload = ResumableUpload(session: session, request: request,
///                              files: ["/data/backup.tar"], store: myStore)
/// switch await upload.run() {
/// case .success(let result): print(result.response.statusCode)
/// case .failure(let error): print(error)  // run it again later: it resumes
/// }
/// ```
public final class ResumableUpload: Sendable {
    private let session: SessionManager
    private let request: Request
    private let files: [String]
    private let options: ResumableUploadOptions
    private let store: any UploadResumeStore
    private let sink: (any ReplySink)?
    private let note: @Sendable (String) -> Void
    private let attempt: @Sendable (TransferTask) -> Void

    /// `init(session:request:files:options:store:sink:note:attempt:)` prepares the upload of
    /// `request`'s body, which reads `files` (their identities guard a resume; a raw file
    /// body is one file). `sink` gets the server's final reply as it arrives, `note` each
    /// decision in words, `attempt` each request's task before it starts (to follow or cancel it).
    public init(session: SessionManager, request: Request, files: [String], options: ResumableUploadOptions = ResumableUploadOptions(),
                store: any UploadResumeStore, sink: (any ReplySink)? = nil, note: @escaping @Sendable (String) -> Void = { _ in },
                attempt: @escaping @Sendable (TransferTask) -> Void = { _ in }) {
        self.session = session
        self.request = request
        self.files = files
        self.options = options
        self.store = store
        self.sink = sink
        self.note = note
        self.attempt = attempt
    }

    /// `maximumStartOvers` is how many new uploads one run begins after the server lost one.
    static let maximumStartOvers = 3
    /// `maximumMismatches` is how many times in a row one window may fail the server's checksum.
    static let maximumMismatches = 3

    /// What the server said of an upload's offset.
    private enum OffsetAnswer {
        case offset(Int64, complete: Bool, response: HTTPResponse)
        case gone(Int)
        case failed(FerryError)
    }

    /// What one request that sent body bytes ended with.
    private enum Step {
        /// The upload is over: the server's final reply.
        case finished(TransferResult)
        /// The upload goes on: ask the offset again (after the retry delay when `waits`);
        /// `failure` is what ended the attempt, when something did.
        case again(waits: Bool, failure: FerryError?)
        /// An append of a window ended well: the server has `offset` bytes (it said so).
        case progressed(Int64, HTTPResponse)
        /// The server's checksum of the window sent from `offset` did not match (tus 460).
        case mismatch(Int64)
        /// The upload cannot go on.
        case failed(FerryError)
        /// The server no longer has the upload: start a new one.
        case startOver(String)
    }

    /// `run()` sends the upload (or its rest) and returns the server's final reply: the
    /// IETF protocol's is the application's answer to the upload, tus's the last PATCH's.
    public func run() async -> Result<TransferResult, FerryError> {
        guard let body = request.body else { return .failure(.upload(.readFailed("the request has no body"))) }
        let length: Int64
        let identities: [UploadFileIdentity]
        do throws(FerryError) {
            let stream = try body.makeStream()
            length = stream.contentLength
            stream.close()
            guard length >= 0 else {
                return .failure(.input(.invalidOption("standard input and named pipes cannot resume: give a file")))
            }
            identities = try files.map { (path) throws(FerryError) in try UploadFileIdentity.read(path: path) }
        } catch {
            return .failure(error)
        }
        var current = store.load()
        if let saved = current, let reason = Self.mismatch(saved, length: length, identities: identities) {
            note("\(reason): starting a new upload")
            await terminate(saved)
            store.clear()
            current = nil
        }
        var stalled = 0
        var delay = options.retryDelay
        var toldResume = false
        var lastFailure: FerryError?
        // New uploads begun because the server lost the last one: bounded, so a server that
        // forgets every upload ends the run instead of making uploads without end.
        var startOvers = 0
        func startingOver() -> Bool {
            startOvers += 1
            return startOvers <= Self.maximumStartOvers
        }
        // The most the server said it had: an attempt that raised it made progress.
        var confirmed = current?.offset ?? 0
        // The server's offset as its last append's answer said it, when that answer was a success.
        var known: (offset: Int64, response: HTTPResponse)?
        var mismatches = 0
        // tus's checksum extension: asked of the server once per run (`.some(nil)`: not offered).
        var checksum: UploadProtocolHeaders.TusChecksum??
        func checksumOffered() async -> UploadProtocolHeaders.TusChecksum? {
            if case .some(let offered) = checksum { return offered }
            let offered = await tusOffer()?.checksum
            checksum = .some(offered)
            return offered
        }
        while true {
            if Task.isCancelled { return .failure(.cancelled) }
            let step: Step
            if let saved = current {
                let answer: OffsetAnswer
                if let told = known {
                    answer = .offset(told.offset, complete: false, response: told.response)
                } else {
                    answer = await askOffset(saved)
                }
                known = nil
                switch answer {
                case .gone(let status):
                    store.clear()
                    current = nil
                    guard startingOver() else { return .failure(.upload(.resumption("the server lost the upload \(startOvers) times in a row (\(status))"))) }
                    note("the server no longer has the upload (\(status)): starting a new upload")
                    continue
                case .failed(let error):
                    step = error == .cancelled || !error.isTransient ? .failed(error) : .again(waits: true, failure: error)
                case .offset(let offset, let complete, let response):
                    if offset > length {
                        let reason = "the server holds \(offset) bytes of a \(length)-byte upload"
                        await terminate(saved)
                        store.clear()
                        current = nil
                        guard startingOver() else { return .failure(.upload(.resumption("\(reason), \(startOvers) times in a row"))) }
                        note("\(reason): starting a new upload")
                        continue
                    }
                    if offset == length && (complete || saved.uploadProtocol == .tus) {
                        // Everything is there; the server's reply to the upload (IETF) was lost with its connection.
                        store.clear()
                        note(saved.uploadProtocol == .tus ? "the server has the whole upload" : "the server has the whole upload already; its reply to it was lost")
                        return .success(TransferResult(response: response, data: Data(), bytesReceived: 0, bytesSent: 0))
                    }
                    if offset > 0 && (!toldResume || lastFailure != nil) {
                        let why = lastFailure.map { "\($0.description): " } ?? ""
                        note("\(why)resuming upload at \(ByteFormatting.size(offset)) of \(ByteFormatting.size(length))")
                    }
                    lastFailure = nil
                    toldResume = true
                    if offset > confirmed {
                        confirmed = offset
                        stalled = 0
                        mismatches = 0
                        delay = options.retryDelay
                    }
                    var advanced = saved
                    advanced.offset = offset
                    if advanced != saved { try? store.save(advanced) }
                    current = advanced
                    step = await append(advanced, from: offset, checksum: saved.uploadProtocol == .tus ? await checksumOffered() : nil)
                }
            } else {
                let kind: UploadResumeData.UploadProtocol
                switch options.mode {
                case .tus: kind = .tus
                case .ietf: kind = .ietf
                case .auto:
                    let offer = await tusOffer()
                    if let offer { checksum = .some(offer.checksum) }
                    kind = offer == nil ? .ietf : .tus
                }
                switch kind {
                case .tus:
                    switch await createTus(length: length, identities: identities) {
                    case .success(let created):
                        current = created
                        toldResume = true
                        step = await append(created, from: 0, checksum: await checksumOffered())
                    case .failure(let error):
                        step = error == .cancelled || !error.isTransient ? .failed(error) : .again(waits: true, failure: error)
                    }
                case .ietf:
                    let (made, outcome) = await createIETF(length: length, identities: identities)
                    current = made ?? current
                    toldResume = true
                    step = made == nil ? ietfUnoffered(outcome) : settle(outcome, sentFrom: 0, of: made, length: length)
                }
            }
            switch step {
            case .finished(var result):
                store.clear()
                // The bytes of the whole upload, the earlier attempts' too.
                result.bytesSent = max(result.bytesSent, current?.length ?? result.bytesSent)
                return .success(result)
            case .failed(let error):
                return .failure(error)
            case .startOver(let reason):
                store.clear()
                current = nil
                guard startingOver() else { return .failure(.upload(.resumption("\(reason), \(startOvers) times in a row"))) }
                note("\(reason): starting a new upload")
            case .progressed(let offset, let response):
                known = (offset, response)
            case .mismatch(let offset):
                mismatches += 1
                guard mismatches <= Self.maximumMismatches else {
                    return .failure(.upload(.resumption("the server's checksum of the bytes from \(ByteFormatting.size(offset)) on failed \(mismatches) times in a row")))
                }
                note("the server's checksum of the bytes from \(ByteFormatting.size(offset)) on did not match what was sent: sending them again")
            case .again(let waits, let failure):
                lastFailure = failure
                stalled += 1
                guard stalled < options.maximumStalledAttempts else {
                    // What ended the last attempt says most; the resume data stays for a later try.
                    return .failure(failure ?? .upload(.resumption("gave up after \(stalled) attempts in a row without progress")))
                }
                if waits {
                    let seconds = min(30, delay)
                    delay *= 2
                    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                }
            }
        }
    }

    /// `settleOffset()` asks the server once how much of a stopped upload it has and saves
    /// that offset with the resume data (what a paused upload then shows). Call it after
    /// `run()` ended cancelled, from a task that is not cancelled; it does nothing without
    /// resume data, and keeps the data as it was when the server does not say.
    public func settleOffset() async {
        // Bounded: a pause waits for this answer.
        guard let saved = store.load(), case .offset(let offset, _, _) = await askOffset(saved, within: 5), offset <= saved.length,
              offset != saved.offset else { return }
        var settled = saved
        settled.offset = offset
        try? store.save(settled)
    }

    // MARK: - Requests

    /// `mismatch(_:length:identities:)` is why `saved` cannot be resumed onto the body now,
    /// `nil` when it can.
    private static func mismatch(_ saved: UploadResumeData, length: Int64, identities: [UploadFileIdentity]) -> String? {
        guard saved.files.count == identities.count else { return "the upload sends other files than before" }
        for (old, new) in zip(saved.files, identities) {
            if let change = new.change(since: old) { return "\(new.path) is not the file the upload began with: \(change)" }
        }
        if saved.length != length {
            return "the body is \(length) bytes, the upload began with \(saved.length)"
        }
        return nil
    }

    /// The user's header fields a request of the protocol carries too (logins, tokens), without
    /// the body's own.
    private var carriedHeaders: HTTPHeaders {
        var fields = HTTPHeaders()
        for field in request.headers where !["content-type", "content-length", "expect", "transfer-encoding"].contains(field.name.lowercased()) {
            fields.add(name: field.name, value: field.value)
        }
        return fields
    }

    /// `controlRequest(_:url:headers:)` is a request without a body to the upload's server,
    /// with the original request's settings (trust, login, proxy, limits).
    private func controlRequest(_ method: HTTPMethod, url: URL, headers: HTTPHeaders) -> Request {
        var made = request.moved(to: url)
        made.method = method
        made.body = nil
        made.headers = carriedHeaders
        for field in headers { made.headers[field.name] = field.value }
        return made
    }

    /// `send(_:offset:window:replying:informational:)` runs one request and returns its outcome.
    private func send(_ made: Request, offset: Int64 = 0, window: (length: Int64, total: Int64)? = nil, replying: Bool = false,
                      informational: (@Sendable (HTTPResponse) -> Void)? = nil) async -> Result<TransferResult, FerryError> {
        var made = made
        // A body never goes twice on its own: see `opensFreshConnection`.
        if made.body != nil { made.opensFreshConnection = true }
        let delegate = ResumableAttemptDelegate(keeping: replying ? options.keptReplyBytes : 4096, sink: replying ? sink : nil,
                                                offset: offset, window: window, informational: informational)
        let task = session.task(kind: made.body == nil ? .data : .upload, request: made, delegate: delegate)
        attempt(task)
        // A cancelled upload makes no more requests (the one running is cancelled by its owner).
        if Task.isCancelled { task.cancel() }
        task.resume()
        return await task.outcome()
    }

    /// `TusOffer` is what a server offers of tus 1.0: the checksum extension's algorithm, if any.
    private struct TusOffer {
        let checksum: UploadProtocolHeaders.TusChecksum?
    }

    /// `tusOffer()` is what the URL's `OPTIONS` answer offers of tus 1.0, `nil` when it does
    /// not answer `Tus-Resumable` with tus 1.0.
    private func tusOffer() async -> TusOffer? {
        let probe = controlRequest(.options, url: request.url, headers: [UploadProtocolHeaders.tusResumable: UploadProtocolHeaders.tusVersion])
        guard case .success(let result) = await send(probe) else { return nil }
        let headers = result.response.headers
        let versions = headers["Tus-Version"] ?? headers[UploadProtocolHeaders.tusResumable] ?? ""
        guard headers.contains(UploadProtocolHeaders.tusResumable), versions.contains(UploadProtocolHeaders.tusVersion) else { return nil }
        return TusOffer(checksum: UploadProtocolHeaders.tusChecksum(in: headers))
    }

    /// `resolve(_:)` is a `Location` value made absolute against the request's URL.
    private func resolve(_ location: String?) -> URL? {
        guard let location, !location.isEmpty, let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
              url.scheme == "http" || url.scheme == "https" else { return nil }
        return url
    }

    /// `createTus(length:identities:)` makes the tus upload (POST with `Upload-Length`) and
    /// saves its resume data before any body byte goes.
    private func createTus(length: Int64, identities: [UploadFileIdentity]) async -> Result<UploadResumeData, FerryError> {
        var fields: HTTPHeaders = [UploadProtocolHeaders.tusResumable: UploadProtocolHeaders.tusVersion, "Upload-Length": "\(length)"]
        if let name = files.first.map({ URL(fileURLWithPath: $0).lastPathComponent }), !name.isEmpty {
            fields["Upload-Metadata"] = "filename " + Data(name.utf8).base64EncodedString()
        }
        var creation = controlRequest(.post, url: request.url, headers: fields)
        creation.headers["Content-Length"] = "0"
        switch await send(creation) {
        case .failure(let error):
            return .failure(error)
        case .success(let result):
            guard result.response.statusCode == 201, let location = resolve(result.response.headers["Location"]) else {
                let status = "\(result.response.statusCode) \(result.response.reasonPhrase)"
                return .failure(.upload(.resumption("the tus server did not create the upload (\(status))")))
            }
            let made = UploadResumeData(uploadProtocol: .tus, interopVersion: nil, location: location.absoluteString, length: length, offset: 0, files: identities)
            do throws(FerryError) {
                try store.save(made)
            } catch {
                return .failure(error)
            }
            return .success(made)
        }
    }

    /// `createIETF(length:identities:)` sends the upload itself, offering the IETF protocol;
    /// the resume data is saved when the server's `104` names the upload, while the body goes.
    private func createIETF(length: Int64, identities: [UploadFileIdentity]) async -> (UploadResumeData?, Result<TransferResult, FerryError>) {
        var offered = request
        for field in UploadProtocolHeaders.ietf(version: options.interopVersion, complete: true) { offered.headers[field.name] = field.value }
        // Not held back for a `100 Continue`: the server's `104` comes as soon as it has the head.
        offered.headers["Expect"] = ""
        let made = Mutex<UploadResumeData?>(nil)
        let saveFailure = Mutex<FerryError?>(nil)
        let version = options.interopVersion
        let store = store
        let base = request.url
        let outcome = await send(offered, replying: true) { informational in
            // Engine thread: saved before the next body byte is handed over.
            guard informational.statusCode == 104, made.withLock({ $0 == nil }),
                  let text = informational.headers["Location"], let location = URL(string: text, relativeTo: base)?.absoluteURL,
                  location.scheme == "http" || location.scheme == "https" else { return }
            let data = UploadResumeData(uploadProtocol: .ietf, interopVersion: version, location: location.absoluteString, length: length, offset: 0, files: identities)
            do throws(FerryError) {
                try store.save(data)
                made.withLock { $0 = data }
            } catch {
                saveFailure.withLock { $0 = error }
            }
        }
        if let failure = saveFailure.withLock({ $0 }) {
            note("the upload cannot resume: its resume data could not be saved (\(failure.description))")
        }
        return (made.withLock { $0 }, outcome)
    }

    /// `ietfUnoffered(_:)` is the step after an upload on which the server offered no
    /// resumption: its reply ends the upload; a failure cannot resume.
    private func ietfUnoffered(_ outcome: Result<TransferResult, FerryError>) -> Step {
        switch outcome {
        case .success(let result):
            note("the server offered no resumable upload (no tus, no 104 of the IETF protocol): this upload could not have resumed")
            return .finished(result)
        case .failure(let error):
            if error == .cancelled { return .failed(error) }
            if error.isTransient || Self.isDrop(error) {
                // Dropped before the server's 104 was read: nothing is known to be there, and the
                // body reads again from its files, so the upload starts again from its first byte.
                note("\(error.description) before the server named the upload: sending it again from the start")
                return .again(waits: true, failure: error)
            }
            note("the server offered no resumable upload (no tus, no 104 of the IETF protocol): the upload cannot resume")
            return .failed(error)
        }
    }

    /// `askOffset(_:within:)` asks the server how much of the upload it has (HEAD on its
    /// resource), in at most `seconds` when given.
    private func askOffset(_ saved: UploadResumeData, within seconds: Double? = nil) async -> OffsetAnswer {
        guard let url = URL(string: saved.location) else { return .gone(404) }
        let fields: HTTPHeaders = saved.uploadProtocol == .tus
            ? [UploadProtocolHeaders.tusResumable: UploadProtocolHeaders.tusVersion]
            : [UploadProtocolHeaders.interop: "\(saved.interopVersion ?? options.interopVersion)"]
        var head = controlRequest(.head, url: url, headers: fields)
        if let seconds { head.maximumTime = seconds }
        switch await send(head) {
        case .failure(let error):
            return .failed(error)
        case .success(let result):
            let response = result.response
            if [404, 410].contains(response.statusCode) || (saved.uploadProtocol == .tus && response.statusCode == 403) {
                return .gone(response.statusCode)
            }
            guard response.isSuccess, let offset = UploadProtocolHeaders.offset(in: response.headers) else {
                let failure = FerryError.validation(.unacceptableStatus(response.statusCode, reason: response.reasonPhrase, url: URLMasking.mask(url), body: nil))
                if failure.isTransient { return .failed(failure) }
                return .failed(.upload(.resumption("the server did not say the upload's offset (\(response.statusCode) \(response.reasonPhrase))")))
            }
            return .offset(offset, complete: UploadProtocolHeaders.isComplete(in: response.headers) ?? false, response: response)
        }
    }

    /// `append(_:from:checksum:)` sends the body from `offset` on to the upload's resource
    /// (PATCH); with a tus `checksum`, only the next window, its `Upload-Checksum` computed first.
    private func append(_ saved: UploadResumeData, from offset: Int64, checksum: UploadProtocolHeaders.TusChecksum? = nil) async -> Step {
        guard let url = URL(string: saved.location), let body = request.body else { return .startOver("the upload's address is not valid") }
        var fields: HTTPHeaders
        switch saved.uploadProtocol {
        case .tus:
            fields = [UploadProtocolHeaders.tusResumable: UploadProtocolHeaders.tusVersion, "Content-Type": "application/offset+octet-stream"]
        case .ietf:
            let version = saved.interopVersion ?? options.interopVersion
            fields = UploadProtocolHeaders.ietf(version: version, complete: true)
            if version >= 6 { fields["Content-Type"] = "application/partial-upload" }
        }
        fields[UploadProtocolHeaders.offset] = "\(offset)"
        var window: (length: Int64, total: Int64)?
        if let checksum {
            let length = min(max(1, options.checksumWindow), saved.length - offset)
            do throws(FerryError) {
                fields["Upload-Checksum"] = "\(checksum.name) \(try Self.digest(of: body, from: offset, count: length, algorithm: checksum.algorithm))"
            } catch {
                return .failed(error)
            }
            window = (length, saved.length)
        }
        var patch = controlRequest(.patch, url: url, headers: fields)
        patch.body = body
        patch.headers["Expect"] = ""
        let outcome = await send(patch, offset: offset, window: window, replying: saved.uploadProtocol == .ietf)
        return settle(outcome, sentFrom: offset, of: saved, length: saved.length)
    }

    /// `digest(of:from:count:algorithm:)` is the base64 digest of `count` bytes of `body` from
    /// `offset`: a window's `Upload-Checksum`.
    private static func digest(of body: RequestBody, from offset: Int64, count: Int64, algorithm: ExpectedChecksum.Algorithm) throws(FerryError) -> String {
        let stream = try OffsetBodyStream(try body.makeStream(), offset: offset, length: count)
        defer { stream.close() }
        var hasher = ChecksumHasher(algorithm: algorithm)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var read: Int64 = 0
        while read < count {
            let got = try stream.read(into: buffer)
            guard got > 0 else { throw .upload(.readFailed("the body ended at byte \(offset + read), before its length")) }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            read += Int64(got)
        }
        guard let digest = hasher.finalize() else { throw .upload(.readFailed("\(algorithm.rawValue) is not available in this system's libcrypto")) }
        return Data(digest).base64EncodedString()
    }

    /// `settle(_:sentFrom:of:length:)` is what a request that sent body bytes from `offset`
    /// ended with: the final reply, a retry (asking the offset again), or a failure.
    private func settle(_ outcome: Result<TransferResult, FerryError>, sentFrom offset: Int64, of saved: UploadResumeData?, length: Int64) -> Step {
        switch outcome {
        case .failure(let error):
            if error == .cancelled { return .failed(error) }
            guard saved != nil, error.isTransient || Self.isDrop(error) else { return .failed(error) }
            return .again(waits: true, failure: error)
        case .success(let result):
            let response = result.response
            guard let saved else { return .finished(result) }
            if saved.uploadProtocol == .tus && response.statusCode == 460 { return .mismatch(offset) }
            if response.statusCode == 409 {
                // The offsets disagreed: ask again.
                return .again(waits: false, failure: nil)
            }
            if [404, 410].contains(response.statusCode), saved.uploadProtocol == .tus || offset > 0 {
                return .startOver("the server no longer has the upload (\(response.statusCode))")
            }
            switch saved.uploadProtocol {
            case .ietf:
                // The application's answer to the whole upload (a refusal too).
                return .finished(result)
            case .tus:
                guard response.isSuccess else { return .finished(result) }
                let now = UploadProtocolHeaders.offset(in: response.headers) ?? offset + result.bytesSent
                if now >= length { return .finished(result) }
                return now > offset && now <= length ? .progressed(now, response) : .again(waits: false, failure: nil)
            }
        }
    }

    /// Whether `error` is the connection ending under the upload (always worth asking the
    /// offset again, whatever the transport called it).
    private static func isDrop(_ error: FerryError) -> Bool {
        if case .transport(.connectionDropped) = error { return true }
        if case .transport(.other) = error { return true }
        return false
    }

    /// `terminate(_:)` ends an upload that will not be resumed (DELETE), where the protocol
    /// allows; its outcome does not matter.
    private func terminate(_ saved: UploadResumeData) async {
        guard let url = URL(string: saved.location) else { return }
        let fields: HTTPHeaders = saved.uploadProtocol == .tus
            ? [UploadProtocolHeaders.tusResumable: UploadProtocolHeaders.tusVersion]
            : [UploadProtocolHeaders.interop: "\(saved.interopVersion ?? options.interopVersion)"]
        _ = await send(controlRequest(.delete, url: url, headers: fields))
    }
}
