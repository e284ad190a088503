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
    let session: SessionManager
    let request: Request
    let files: [String]
    let options: ResumableUploadOptions
    let store: any UploadResumeStore
    let sink: (any ReplySink)?
    let note: @Sendable (String) -> Void
    let attempt: @Sendable (TransferTask) -> Void

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
    enum OffsetAnswer {
        case offset(Int64, complete: Bool, response: HTTPResponse)
        case gone(Int)
        case failed(FerryError)
    }

    /// What one request that sent body bytes ended with.
    enum Step {
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

    /// `settleOffset()` asks the server how much of a stopped upload it has and saves that
    /// offset with the resume data (what a paused upload then shows). Call it after `run()`
    /// ended cancelled, from a task that is not cancelled; it does nothing without resume
    /// data, and keeps the data as it was when the server does not say.
    ///
    /// The first answer is waited for (at most 5 s: a pause waits for it). A server may still
    /// be taking in the request that was cut (tusd and tuspyserver record its bytes once they
    /// see it end) and name the old offset, or be too busy to answer in time: then it is asked
    /// again in the background, `followUps` times at growing intervals, until it names another
    /// offset or the resume data changes (the upload ran again, and its own run asks).
    public func settleOffset(followUps: Int = 4) async {
        guard let saved = store.load() else { return }
        if await settle(saved, within: 5) || followUps <= 0 { return }
        Task.detached { [self] in
            var wait = 0.5
            for _ in 0..<followUps {
                try? await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                wait *= 2
                guard store.load() == saved else { return }
                if await settle(saved, within: 10) { return }
            }
        }
    }

    /// `settle(_:within:)` asks the offset of the upload `saved` describes and saves it when
    /// it moved; true once the server named an offset other than `saved`'s (or the upload is
    /// gone), false when it did not answer or named the same one.
    private func settle(_ saved: UploadResumeData, within seconds: Double) async -> Bool {
        switch await askOffset(saved, within: seconds) {
        case .offset(let offset, _, _):
            guard offset != saved.offset else { return false }
            guard offset <= saved.length, store.load() == saved else { return true }
            var settled = saved
            settled.offset = offset
            try? store.save(settled)
            return true
        case .gone:
            return true
        case .failed:
            return false
        }
    }
}
