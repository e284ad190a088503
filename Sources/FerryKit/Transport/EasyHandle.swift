import CCurl
import Foundation

/// `EasyHandle` wraps one libcurl easy handle and forwards its callbacks to the task's delegate.
///
/// Created, used and destroyed on the engine thread only. libcurl reaches it through an
/// unretained `Unmanaged` pointer; the engine's handle table keeps it alive until cleanup.
/// The libcurl handle may be one an earlier transfer gave back (`recycle()`), reset.
final class EasyHandle {
    let task: TransferTask
    let delegate: any TaskDelegate
    let raw: UnsafeMutableRawPointer
    /// Whether `raw` is this handle's to clean up (not given back by `recycle()`).
    private var ownsRaw = true
    let configuration: SessionConfiguration
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var body: (any BodyStream)?
    private var tracker = ProgressTracker()

    // Redirects are followed here, not by libcurl, so that every hop is checked (scheme, hop
    // count) and secrets go only to the origin they were given for (`Origin`).
    /// The URL of the current hop.
    private(set) var currentURL: URL
    /// The method of the current hop (a 303, or a 301/302 after a POST, turns it into GET).
    private var currentMethod: HTTPMethod
    /// Every header of the request (session defaults, the request's, the delegate's), before
    /// the secrets are filtered for the hop's origin.
    private var requestHeaders = HTTPHeaders()
    /// Whether libcurl's own `Content-Type` of a POST body is taken out (the request gives none).
    private var removesContentType = false
    /// Redirects followed so far.
    private(set) var redirectCount = 0
    /// The TLS policy the current hop is evaluated by, and the rule that chose it; set by
    /// `applyTrust(for:)` before each hop.
    var hopTrust: HopTrust?
    /// The receive token bucket, when the transfer has a cap or a share of the engine's budget.
    var pacer: Pacer?
    /// Whether the transfer is still to step aside at its first body bytes
    /// (`Request.yieldsAtFirstBytes`).
    var yieldPending: Bool
    /// The send token bucket, when the transfer has a share of the engine's upload budget.
    var sendPacer: Pacer?
    /// How many bytes the send pacer lets the next read take (see `sendMustPause()`).
    var sendAllowance: Int?
    /// When a transfer its pacer paused may go on; `nil` while it is not paused by it.
    var pacedUntil: Double?
    /// Whether the task was paused (by its user), which the pacer never undoes.
    private var pausedByTask = false
    /// Whether the transfer paused itself because its body had no byte yet (a pipe).
    private(set) var waitingForBody = false
    /// Whether the body may have to be waited for (see `BodyStream.readinessDescriptor`).
    var bodyMayWait: Bool { body?.readinessDescriptor != nil }
    /// Whether the transfer has a speed cap or a share (the engine then wakes it when it paused itself).
    var isPaced: Bool { pacer != nil || sendPacer != nil }
    /// This transfer's own receive speed cap: the request's, else the session's; changed live
    /// by `Engine.Command.setReceiveCap`. `nil` (or 0) is none.
    var receiveCap: Int64?
    /// The share of the engine's download budget to size the receive buffer for, set before
    /// `configure()`; `nil` without a budget.
    var startingShare: Int64?
    /// Body bytes received so far (the budget's measure of what the transfer wants).
    private(set) var bodyBytesReceived: Int64 = 0
    /// The session clock's time.
    var clockNow: Double { configuration.clock.now() }

    // Response parsing state.
    private var head = ResponseHeadParser()
    private var statusCode: Int { head.statusCode }
    private var reasonPhrase: String { head.reasonPhrase }
    private var httpVersion: String { head.httpVersion }
    private var headers: HTTPHeaders { head.headers }
    private(set) var response: HTTPResponse?
    /// An error raised inside a callback; it wins over the `CURLcode` libcurl reports for the abort.
    private(set) var callbackError: FerryError?
    private(set) var bytesSent: Int64 = 0
    private var bodyLength: Int64?
    /// The last progress callback that was acted on: its time and the bytes then (see `progress`).
    private var lastTick: (time: Double, received: Int64, sent: Int64) = (-.infinity, -1, -1)
    /// Seconds between two progress callbacks acted on while no byte moves.
    static let idleTickInterval = 0.1

    /// Hosts never sent through a proxy: the environment's `no_proxy`/`NO_PROXY` plus loopback,
    /// so `http_proxy` never captures traffic meant for this machine.
    static let noProxyList: String = {
        let environment = ProcessInfo.processInfo.environment
        let given = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        if given.trimmingCharacters(in: .whitespaces) == "*" { return "*" }
        return (given.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } + ["localhost", "127.0.0.1", "::1"]).joined(separator: ",")
    }()

    /// `reusing` is a libcurl handle `recycle()` gave back, else a new one is made.
    init?(task: TransferTask, delegate: any TaskDelegate, configuration: SessionConfiguration,
          reusing idle: UnsafeMutableRawPointer? = nil) {
        guard CurlGlobal.initialized, let raw = idle ?? curl_easy_init() else { return nil }
        self.task = task
        self.delegate = delegate
        self.raw = raw
        self.configuration = configuration
        currentURL = task.request.url
        currentMethod = task.request.method
        receiveCap = task.request.maximumReceiveSpeed ?? configuration.maximumReceiveSpeed
        yieldPending = task.request.yieldsAtFirstBytes
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if ownsRaw { curl_easy_cleanup(raw) }
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
        body?.close()
    }

    /// Sets every option for the task's request. Throws when the request cannot be sent at all.
    func configure() throws(FerryError) {
        let request = task.request
        let context = Unmanaged.passUnretained(self).toOpaque()
        let c = configuration
        set(CURLOPT_PRIVATE, pointer: context)
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROTOCOLS_STR, string: "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https")
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(((request.connectTimeout ?? c.connectTimeout) * 1000).rounded()))
        if let maximumTime = request.maximumTime, maximumTime > 0 {
            set(CURLOPT_TIMEOUT_MS, max(1, Int((maximumTime * 1000).rounded())))
        }
        set(CURLOPT_LOW_SPEED_LIMIT, lowSpeedLimit)
        set(CURLOPT_LOW_SPEED_TIME, request.lowSpeedTime ?? c.lowSpeedTime)
        if let cap = receiveSpeedCap, cap > 0 {
            pacer = Pacer(rate: cap, now: c.clock.now())
        }
        if let rate = [receiveSpeedCap, startingShare].compactMap({ $0 }).filter({ $0 > 0 }).min() {
            set(CURLOPT_BUFFERSIZE, Pacer.receiveBufferSize(for: rate, maximum: request.receiveBufferSize ?? c.receiveBufferSize))
        } else {
            set(CURLOPT_BUFFERSIZE, request.receiveBufferSize ?? c.receiveBufferSize)
        }
        set(CURLOPT_UPLOAD_BUFFERSIZE, c.uploadBufferSize)
        applyTrust(for: currentURL)
        applyConnection(request)
        if request.usesOwnConnection { set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)) }
        if request.opensFreshConnection { set(CURLOPT_FRESH_CONNECT, 1) }
        if let cap = request.maximumSendSpeed, cap > 0 { _ = ccurl_easy_setopt_offset(raw, CURLOPT_MAX_SEND_SPEED_LARGE, Int(cap)) }

        _ = ccurl_easy_setopt_data_callback(raw, CURLOPT_WRITEFUNCTION, easyWriteCallback)
        set(CURLOPT_WRITEDATA, pointer: context)
        _ = ccurl_easy_setopt_data_callback(raw, CURLOPT_HEADERFUNCTION, easyHeaderCallback)
        set(CURLOPT_HEADERDATA, pointer: context)
        _ = ccurl_easy_setopt_xferinfo_callback(raw, easyProgressCallback)
        set(CURLOPT_XFERINFODATA, pointer: context)
        set(CURLOPT_NOPROGRESS, 0)
        if c.headTrace != nil {
            _ = ccurl_easy_setopt_debug_callback(raw, easyDebugCallback)
            set(CURLOPT_DEBUGDATA, pointer: context)
            set(CURLOPT_VERBOSE, 1)
        }

        // Headers: session defaults, the request's own, then the delegate's (a resume's Range).
        var all = HTTPHeaders()
        for field in c.defaultHeaders where !request.headers.contains(field.name) { all.add(name: field.name, value: field.value) }
        for field in request.headers { all.add(name: field.name, value: field.value) }
        for field in delegate.additionalHeaders(for: task) {
            all[field.name] = field.value
        }
        if !all.contains("User-Agent") { set(CURLOPT_USERAGENT, string: c.userAgent) }
        // "" asks for every coding libcurl decodes; a ranged request asks for none (its
        // offsets count the bytes of the file, not of an encoding of it).
        if request.acceptsCompression && !all.contains("Range") { set(CURLOPT_ACCEPT_ENCODING, string: "") }

        // Body.
        let method = request.method
        if let stream = try delegate.makeBodyStream(for: task) {
            body = stream
            bodyLength = stream.contentLength >= 0 ? stream.contentLength : nil  // -1: unknown, sent chunked
            _ = ccurl_easy_setopt_data_callback(raw, CURLOPT_READFUNCTION, easyReadCallback)
            set(CURLOPT_READDATA, pointer: context)
            _ = ccurl_easy_setopt_seek_callback(raw, easySeekCallback)
            set(CURLOPT_SEEKDATA, pointer: context)
            if method == .post {
                set(CURLOPT_POST, 1)
                _ = ccurl_easy_setopt_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, Int(stream.contentLength))
                // libcurl would call a POST body a form (application/x-www-form-urlencoded): a
                // raw body goes with the type the request gives, or none, as curl -T sends it.
                removesContentType = !all.contains("Content-Type")
            } else {
                set(CURLOPT_UPLOAD, 1)
                _ = ccurl_easy_setopt_offset(raw, CURLOPT_INFILESIZE_LARGE, Int(stream.contentLength))
                if method != .put { set(CURLOPT_CUSTOMREQUEST, string: method.rawValue) }
            }
            if stream.contentLength < c.expectContinueThreshold && !all.contains("Expect") {
                all.add(name: "Expect", value: "")
            }
        } else if method == .head {
            set(CURLOPT_NOBODY, 1)
        } else if method != .get {
            set(CURLOPT_CUSTOMREQUEST, string: method.rawValue)
        }

        for field in all {
            try HTTPHeaders.validate(name: field.name, value: field.value)
        }
        requestHeaders = all
        applyHop()
    }

    /// The receive speed cap of this transfer: the request's, else the session's.
    private var receiveSpeedCap: Int64? { receiveCap }

    /// The low-speed limit: the request's or the session's, kept below a speed cap Ferry
    /// imposes itself, so that throttling is never taken for a stall.
    private var lowSpeedLimit: Int {
        let limit = task.request.lowSpeedLimit ?? configuration.lowSpeedLimit
        guard let cap = receiveSpeedCap, cap > 0 else { return limit }
        return max(1, min(limit, Int(cap / 4)))
    }

    /// `applyHop()` sets the URL and the header lines of the current hop: secret headers and
    /// URL credentials only when the hop's origin is the one they were given for.
    private func applyHop() {
        let trusted = Origin(currentURL) == task.request.secretsOrigin
        set(CURLOPT_URL, string: (trusted ? currentURL : Self.withoutCredentials(currentURL)).absoluteString)
        curl_slist_free_all(headerList)
        headerList = nil
        for field in requestHeaders where trusted || !HTTPHeaders.isSecret(field.name) {
            headerList = curl_slist_append(headerList, Self.headerLine(field))
        }
        if removesContentType { headerList = curl_slist_append(headerList, "Content-Type:") }
        _ = ccurl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, headerList)
        // The login, like the other secrets, only for its own origin.
        if let login = task.request.login, trusted {
            set(CURLOPT_USERNAME, string: login.user)
            set(CURLOPT_PASSWORD, string: login.password)
            // CURLAUTH_BASIC is 1 and CURLAUTH_DIGEST 2 (macros with casts Swift does not import);
            // with both, libcurl waits for the server's challenge and answers it.
            set(CURLOPT_HTTPAUTH, login.scheme == .basic ? 1 : login.scheme == .digest ? 2 : 3)
        } else if task.request.login != nil {
            _ = ccurl_easy_setopt_pointer(raw, CURLOPT_USERNAME, nil)
            _ = ccurl_easy_setopt_pointer(raw, CURLOPT_PASSWORD, nil)
        }
    }

    /// `url` without user name and password.
    private static func withoutCredentials(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }

    /// Whether the current reply is a redirect this handle follows (a 301, 302, 303, 307 or
    /// 308 with a Location): its body is not the task's and is discarded.
    private var isFollowedRedirect: Bool {
        // Asked at every body callback: the status alone answers for nearly all of them.
        switch statusCode {
        case 301, 302, 303, 307, 308: configuration.followsRedirects && headers.contains("Location")
        default: false
        }
    }

    /// `followRedirect(code:)` prepares the next hop when the transfer libcurl ended with
    /// `code` was a redirect to follow, and returns `true`: the engine adds the handle again.
    /// A redirect that must not be followed (too many, another scheme than http or https, a
    /// body that cannot be sent again) ends the transfer with that error (`false`).
    func followRedirect(code: CURLcode) -> Bool {
        guard code == CURLE_OK, callbackError == nil, response == nil, isFollowedRedirect else { return false }
        var pointer: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, CURLINFO_REDIRECT_URL, &pointer) == CURLE_OK, let pointer else {
            callbackError = .transport(.disallowedProtocol("the server's Location header could not be followed"))
            return false
        }
        let text = String(cString: pointer)
        guard redirectCount < configuration.maximumRedirects else {
            callbackError = .transport(.tooManyRedirects(configuration.maximumRedirects))
            return false
        }
        guard let next = URL(string: text), let scheme = next.scheme?.lowercased(), next.host != nil else {
            callbackError = .transport(.disallowedProtocol("the server redirected to \"\(URLMasking.mask(text).printable)\""))
            return false
        }
        guard scheme == "http" || scheme == "https" else {
            callbackError = .transport(.disallowedProtocol("the server redirected to a \(scheme.printable) URL"))
            return false
        }
        let method = currentMethod.redirected(by: statusCode)
        if method != currentMethod {
            currentMethod = method
            body?.close()
            body = nil
            bodyLength = nil
            requestHeaders = requestHeaders.withoutBodyFields
            set(CURLOPT_HTTPGET, 1)
            _ = ccurl_easy_setopt_string(raw, CURLOPT_CUSTOMREQUEST, nil)
        } else if let body {
            do throws(FerryError) {
                try body.rewind()
            } catch {
                callbackError = error
                return false
            }
        }
        redirectCount += 1
        currentURL = next
        head = ResponseHeadParser()
        // The next host may be judged by another policy (its own rule, or none).
        applyTrust(for: next)
        applyHop()
        return true
    }

    /// "Name;" is libcurl's way to send a header with an empty value; "Name:" would remove it.
    private static func headerLine(_ field: HTTPHeaders.Field) -> String {
        field.value.isEmpty && field.name.lowercased() != "expect" ? "\(field.name);" : "\(field.name): \(field.value)"
    }

    /// The engine's cookie store, given to the handles of requests with cookies (engine thread).
    var cookieShare: UnsafeMutableRawPointer?

    /// Whether the default `.netrc` is known to be missing (`NetrcPresence`): libcurl is then
    /// not asked to read it (engine thread).
    var netrcIsMissing = false

    /// Whether the transfer ran libcurl's cookie engine: its handle is cleaned up, never
    /// recycled (a reset keeps the cookies, which another task must not send), and the
    /// cleanup writes the cookie jar.
    var usesCookies: Bool { !task.request.cookieFiles.isEmpty || task.request.cookieJar != nil }

    /// `recycle()` resets the libcurl handle to its defaults and gives it back for another
    /// transfer, once it left the multi handle and nothing more is read from it: making and
    /// destroying one per transfer cost more than the reset (thousands of small files).
    func recycle() -> UnsafeMutableRawPointer {
        curl_easy_reset(raw)
        ownsRaw = false
        return raw
    }

    func pause() {
        pausedByTask = true
        _ = curl_easy_pause(raw, ccurl_pause_all())
    }

    func unpause() {
        pausedByTask = false
        if waitingForBody { return }  // the engine wakes it when the body has bytes
        if let pacedUntil, pacedUntil > configuration.clock.now() { return }  // the pacer wakes it
        pacedUntil = nil
        _ = curl_easy_pause(raw, ccurl_pause_cont())
    }

    /// `wakeIfPaced(now:)` lets a transfer its pacer paused go on once its time came (libcurl
    /// then delivers the bytes it kept, which may pause it again); returns when it may go on
    /// next, `nil` when it is not paused by the pacer.
    func wakeIfPaced(now: Double) -> Double? {
        guard let until = pacedUntil else { return nil }
        guard now >= until else { return until }
        pacedUntil = nil
        if !pausedByTask && !waitingForBody { _ = curl_easy_pause(raw, ccurl_pause_cont()) }
        return pacedUntil
    }

    /// The transport outcome once libcurl reports the transfer done with `code`.
    func transportResult(code: CURLcode) -> Result<HTTPResponse, FerryError> {
        if let callbackError { return .failure(callbackError) }
        if code == CURLE_OK {
            deliverResponseIfNeeded()
            if let callbackError { return .failure(callbackError) }
            guard let response else {
                return .failure(.transport(.connectionDropped("the server sent no response")))
            }
            return .success(response)
        }
        // An early rejection (413, 401, ...) during an upload surfaces as a send error: report the status.
        if statusCode >= 300, code == CURLE_SEND_ERROR || code == CURLE_RECV_ERROR || code == CURLE_SEND_FAIL_REWIND || code == CURLE_GOT_NOTHING {
            deliverResponseIfNeeded()
            if let response { return .success(response) }
        }
        var osErrno = 0
        _ = ccurl_easy_getinfo_long(raw, CURLINFO_OS_ERRNO, &osErrno)
        let detail = String(cString: errorBuffer)
        let url = effectiveURL ?? task.request.url
        let error = CurlErrorMapping.error(code: code, url: url, osErrno: osErrno, detail: detail, maxRedirects: configuration.maximumRedirects, lowSpeedTime: configuration.lowSpeedTime)
        if code == CURLE_OPERATION_TIMEDOUT, let limit = task.request.maximumTime,
           Self.reachedMaximumTime(limit, detail: detail, connectTimeout: task.request.connectTimeout ?? configuration.connectTimeout) {
            return .failure(.transport(.gaveUp(seconds: limit)))
        }
        if case .transport(.tls(let reason)) = error, let note = trustNote {
            return .failure(.transport(.tls("\(reason) (\(note))")))
        }
        return .failure(error)
    }

    /// `reachedMaximumTime(_:detail:connectTimeout:)` is whether a timeout was the request's
    /// `maximumTime` (`limit`) running out: not the low-speed limit, nor a connect timeout
    /// shorter than it.
    static func reachedMaximumTime(_ limit: Double, detail: String, connectTimeout: Double) -> Bool {
        if detail.localizedCaseInsensitiveContains("too slow") { return false }
        let connecting = detail.localizedCaseInsensitiveContains("connect") || detail.localizedCaseInsensitiveContains("resolv")
        return !connecting || limit <= connectTimeout
    }

    /// The body bytes the progress counts to: the bytes already on the server too.
    private var expectedSentBytes: Int64? { bodyLength.map { delegate.bodyTotal ?? $0 + delegate.bodyOffset } }

    /// Publishes a final progress snapshot.
    func publishFinalProgress() {
        if let snapshot = tracker.update(received: delegate.receivedBytes, expectedReceived: delegate.expectedReceivedBytes, sent: bytesSent + delegate.bodyOffset, expectedSent: expectedSentBytes, now: configuration.clock.now(), force: true) {
            task.publish(progress: snapshot)
        }
    }

    // MARK: - Callbacks (engine thread, inside curl_multi_perform)

    func receiveHeader(_ line: UnsafeRawBufferPointer) {
        // Called for every header line, on the engine thread.
        head.receive(line)
        if (100..<200).contains(statusCode), statusCode != 101, line.allSatisfy({ $0 == 0x0D || $0 == 0x0A }) {
            // The blank line that ends an informational response's head.
            delegate.task(task, didReceiveInformational: HTTPResponse(url: currentURL, statusCode: statusCode, reasonPhrase: reasonPhrase,
                                                                      headers: headers, httpVersion: httpVersion))
        }
    }

    /// What the write callback answers: bytes taken, a pause (the pacer's), or an error.
    enum BodyVerdict { case taken, pause, failed }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> BodyVerdict {
        if isFollowedRedirect { return .taken }
        if yieldPending, !bytes.isEmpty, pacedUntil == nil {
            // Until the engine's next turn (`wakeIfPaced(now:)`).
            yieldPending = false
            pacedUntil = configuration.clock.now()
            return .pause
        }
        if pacer != nil, !bytes.isEmpty {
            let now = configuration.clock.now()
            if pacer?.take(bytes.count, now: now) == false {
                pacedUntil = pacer?.resumeTime
                return .pause
            }
        }
        deliverResponseIfNeeded()
        guard callbackError == nil else { return .failed }
        do throws(FerryError) {
            try delegate.task(task, didReceive: bytes)
            bodyBytesReceived += Int64(bytes.count)
            return .taken
        } catch {
            callbackError = error
            return .failed
        }
    }

    /// `BodyRead` is what the read callback gives libcurl: bytes (0 at the end), a pause
    /// while the body has nothing yet, or an abort.
    enum BodyRead {
        case bytes(Int)
        case wait
        case failed
    }

    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        guard let body else { return .bytes(0) }
        do throws(FerryError) {
            let allowed = sendPacer == nil ? buffer.count : min(sendAllowance ?? buffer.count, buffer.count)
            guard let count = try body.readAvailable(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<allowed])) else {
                // The engine waits on the body's descriptor and wakes the transfer (`bodyIsReady()`).
                waitingForBody = true
                return .wait
            }
            sendAllowance = nil
            _ = sendPacer?.take(count, now: configuration.clock.now())
            return .bytes(count)
        } catch {
            callbackError = error
            return .failed
        }
    }

    /// The descriptor the engine waits on while the body has nothing to give; `nil` otherwise.
    var bodyWaitDescriptor: Int32? {
        waitingForBody ? body?.readinessDescriptor : nil
    }

    /// `bodyIsReady()` lets a transfer that waited for its body go on (unless its user or
    /// its pacer holds it).
    func bodyIsReady() {
        guard waitingForBody else { return }
        waitingForBody = false
        if !pausedByTask && pacedUntil == nil { _ = curl_easy_pause(raw, ccurl_pause_cont()) }
    }

    func rewindBody() -> Bool {
        guard let body else { return false }
        do throws(FerryError) {
            try body.rewind()
            return true
        } catch {
            callbackError = error
            return false
        }
    }

    /// libcurl calls its progress function several times per transfer step, most of them with
    /// no byte moved since the last: those are acted on (the delegate's tick, the progress
    /// snapshot) at most every `idleTickInterval`, which is plenty for a checkpoint each second
    /// and a speed that falls while a transfer stalls.
    func progress(uploaded: Int) {
        bytesSent = Int64(uploaded)
        let now = configuration.clock.now()
        let received = delegate.receivedBytes
        if received == lastTick.received, bytesSent == lastTick.sent, now - lastTick.time < EasyHandle.idleTickInterval {
            return
        }
        lastTick = (now, received, bytesSent)
        delegate.taskDidTick(task)
        let expectedReceived = delegate.expectedReceivedBytes
        if let snapshot = tracker.update(received: received, expectedReceived: expectedReceived, sent: bytesSent + delegate.bodyOffset, expectedSent: expectedSentBytes, now: now),
           received > 0 || bytesSent > 0 || expectedReceived != nil || bodyLength != nil {
            // A snapshot that knows nothing yet (no byte, no length) tells no more than the
            // start did: not published (a small file then has one, its last).
            task.publish(progress: snapshot)
        }
    }

    // MARK: - Helpers

    private var effectiveURL: URL? { currentURL }

    private func deliverResponseIfNeeded() {
        guard response == nil, statusCode != 0, !isFollowedRedirect else { return }
        let current = HTTPResponse(url: currentURL, statusCode: statusCode, reasonPhrase: reasonPhrase, headers: headers, httpVersion: httpVersion)
        response = current
        task.record(response: current)
        do throws(FerryError) {
            try delegate.task(task, didReceive: current)
        } catch {
            callbackError = error
        }
    }

    func set(_ option: CURLoption, _ value: Int) {
        _ = ccurl_easy_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, string: String) {
        _ = ccurl_easy_setopt_string(raw, option, string)  // libcurl copies strings
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer) {
        _ = ccurl_easy_setopt_pointer(raw, option, pointer)
    }
}
