import Foundation
import Synchronization

/// The requests of a `ResumableUpload`: creation, offsets, appends and their outcomes.
extension ResumableUpload {
    // MARK: - Requests

    /// `mismatch(_:length:identities:)` is why `saved` cannot be resumed onto the body now,
    /// `nil` when it can.
    static func mismatch(_ saved: UploadResumeData, length: Int64, identities: [UploadFileIdentity]) -> String? {
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
    var carriedHeaders: HTTPHeaders {
        var fields = HTTPHeaders()
        for field in request.headers where !["content-type", "content-length", "expect", "transfer-encoding"].contains(field.name.lowercased()) {
            fields.add(name: field.name, value: field.value)
        }
        return fields
    }

    /// `controlRequest(_:url:headers:)` is a request without a body to the upload's server,
    /// with the original request's settings (trust, login, proxy, limits).
    func controlRequest(_ method: HTTPMethod, url: URL, headers: HTTPHeaders) -> Request {
        var made = request.moved(to: url)
        made.method = method
        made.body = nil
        made.headers = carriedHeaders
        for field in headers { made.headers[field.name] = field.value }
        return made
    }

    /// `send(_:offset:window:replying:informational:)` runs one request and returns its outcome.
    func send(_ made: Request, offset: Int64 = 0, window: (length: Int64, total: Int64)? = nil, replying: Bool = false,
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
    struct TusOffer {
        let checksum: UploadProtocolHeaders.TusChecksum?
    }

    /// `tusOffer()` is what the URL's `OPTIONS` answer offers of tus 1.0, `nil` when it does
    /// not answer `Tus-Resumable` with tus 1.0.
    func tusOffer() async -> TusOffer? {
        let probe = controlRequest(.options, url: request.url, headers: [UploadProtocolHeaders.tusResumable: UploadProtocolHeaders.tusVersion])
        guard case .success(let result) = await send(probe) else { return nil }
        let headers = result.response.headers
        let versions = headers["Tus-Version"] ?? headers[UploadProtocolHeaders.tusResumable] ?? ""
        guard headers.contains(UploadProtocolHeaders.tusResumable), versions.contains(UploadProtocolHeaders.tusVersion) else { return nil }
        return TusOffer(checksum: UploadProtocolHeaders.tusChecksum(in: headers))
    }

    /// `resolve(_:)` is a `Location` value made absolute against the request's URL.
    func resolve(_ location: String?) -> URL? {
        guard let location, !location.isEmpty, let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
              url.scheme == "http" || url.scheme == "https" else { return nil }
        return url
    }

    /// `createTus(length:identities:)` makes the tus upload (POST with `Upload-Length`) and
    /// saves its resume data before any body byte goes.
    func createTus(length: Int64, identities: [UploadFileIdentity]) async -> Result<UploadResumeData, FerryError> {
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
    func createIETF(length: Int64, identities: [UploadFileIdentity]) async -> (UploadResumeData?, Result<TransferResult, FerryError>) {
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
    func ietfUnoffered(_ outcome: Result<TransferResult, FerryError>) -> Step {
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
    func askOffset(_ saved: UploadResumeData, within seconds: Double? = nil) async -> OffsetAnswer {
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
    func append(_ saved: UploadResumeData, from offset: Int64, checksum: UploadProtocolHeaders.TusChecksum? = nil) async -> Step {
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
    static func digest(of body: RequestBody, from offset: Int64, count: Int64, algorithm: ExpectedChecksum.Algorithm) throws(FerryError) -> String {
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
    func settle(_ outcome: Result<TransferResult, FerryError>, sentFrom offset: Int64, of saved: UploadResumeData?, length: Int64) -> Step {
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
    static func isDrop(_ error: FerryError) -> Bool {
        if case .transport(.connectionDropped) = error { return true }
        if case .transport(.other) = error { return true }
        return false
    }

    /// `terminate(_:)` ends an upload that will not be resumed (DELETE), where the protocol
    /// allows; its outcome does not matter.
    func terminate(_ saved: UploadResumeData) async {
        guard let url = URL(string: saved.location) else { return }
        let fields: HTTPHeaders = saved.uploadProtocol == .tus
            ? [UploadProtocolHeaders.tusResumable: UploadProtocolHeaders.tusVersion]
            : [UploadProtocolHeaders.interop: "\(saved.interopVersion ?? options.interopVersion)"]
        _ = await send(controlRequest(.delete, url: url, headers: fields))
    }
}
