import CCurl
import Foundation
import Synchronization

/// `Engine` drives every transfer of a session on one dedicated thread with a libcurl multi handle.
///
/// Other threads only call ``submit(_:)``: the command goes into a locked queue and
/// `curl_multi_wakeup` interrupts the engine's `curl_multi_poll`. An idle engine sleeps in
/// that poll; it does not spin. Every easy handle is created, driven and destroyed on the
/// engine thread ("ferry-engine"), which also runs the task delegates' callbacks, except the
/// `didCompleteWith` of a transfer that ended on its own: that one runs on the naming thread
/// once the engine is done with the transfer. Transfers that end while the completion thread
/// is busy are completed together: their files are made durable with one `GroupSync` (a group
/// commit) there, before their delegates give them their final names on the naming thread. A session with
/// limits (`SessionConfiguration.maximumActiveTransfers`, per host too) has the transfers
/// beyond them held here, in order; one starts as soon as another ends, without waiting for
/// the thread that resumed it. The limits may change while transfers run (`setLimits`).
final class Engine: @unchecked Sendable {
    /// `Command` is a request from another thread to the engine thread.
    enum Command: Sendable {
        case add(TransferTask, any TaskDelegate, SessionConfiguration)
        case pause(Int)
        case resume(Int)
        case cancel(Int)
        /// `setLimits` changes the admission limits, then calls `done` (also when the engine
        /// has shut down and drops the command).
        case setLimits(AdmissionLimits, done: @Sendable () -> Void)
        /// `setOverallLimits` changes the speed budgets shared by the transfers (`BandwidthBudget`),
        /// then calls `done` (also when the engine has shut down and drops the command).
        case setOverallLimits(OverallLimits, done: @Sendable () -> Void)
        /// `setReceiveCap` changes one running transfer's own receive speed cap (`nil`: none).
        case setReceiveCap(Int, Int64?)
        case shutdown
    }

    private struct Inbox {
        var commands: [Command] = []
        var isShutDown = false
    }

    /// The multi handle. Only `curl_multi_wakeup` is called on it from other threads (libcurl allows that).
    private nonisolated(unsafe) let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private let stopped = DispatchSemaphore(value: 0)
    /// Handles by task identifier. Engine thread only.
    private var handles: [Int: EasyHandle] = [:]
    /// The running transfers that pause themselves and are woken here: those with a speed cap
    /// (`Pacer`), and those that step aside once at their first bytes (`Request.yieldsAtFirstBytes`).
    private var paced: [Int: EasyHandle] = [:]
    /// The transfers whose body may have to be waited for (a pipe's), by task id: while one
    /// waits, its body's descriptor joins the engine's poll (see `pollWithBodies(timeout:)`).
    private var bodyWaiters: [Int: EasyHandle] = [:]
    /// The speed budgets shared by the running transfers. Engine thread only.
    private let budget: BandwidthBudget
    /// `Admission` is a transfer held back by its session's limits (see `add`); a class, so
    /// that moving it around `held` costs one reference, not a copy of its configuration.
    private final class Admission {
        let task: TransferTask
        let delegate: any TaskDelegate
        let configuration: SessionConfiguration
        let host: String

        init(task: TransferTask, delegate: any TaskDelegate, configuration: SessionConfiguration, host: String) {
            self.task = task
            self.delegate = delegate
            self.configuration = configuration
            self.host = host
        }
    }
    /// `held` are transfers waiting for a place under the limits, in order. Engine thread only.
    private var held: [Admission] = []
    /// `limits` hold transfers back (see `add`); the session's, changed by `setLimits`.
    /// Engine thread only.
    private var limits: AdmissionLimits
    /// `activeByHost` counts running transfers by host, and `hostOfActive` is each one's host,
    /// for transfers started under a per-host limit. Engine thread only.
    private var activeByHost: [String: Int] = [:]
    private var hostOfActive: [Int: String] = [:]
    /// The cookie store of the transfers with cookies (`EasyHandle.cookieShare`), made at the
    /// first of them.
    private var cookieShare: UnsafeMutableRawPointer?
    /// Whether the default `.netrc` exists, looked at once a second (`NetrcPresence`).
    private var netrc = NetrcPresence()
    /// libcurl handles of ended transfers, reset, for the next ones (`EasyHandle.recycle()`),
    /// at most `idleHandleLimit`. Engine thread only.
    private var idleHandles: [UnsafeMutableRawPointer] = []
    private static let idleHandleLimit = 64
    /// Unnamed files made ahead for this engine's small downloads (see `UnnamedFileReserve`).
    let unnamedFiles: UnnamedFileReserve
    /// The `didCompleteWith` of transfers that ended on their own (not cancelled), run on the
    /// completion and naming threads (`EngineCompletions`); `shutdown()` waits for them.
    private let completions: EngineCompletions

    /// Starts the engine thread, with the admission `limits` of its session.
    init(limits: AdmissionLimits, overall: OverallLimits = OverallLimits()) {
        self.limits = limits
        budget = BandwidthBudget(limits: overall)
        let unnamedFiles = UnnamedFileReserve()
        self.unnamedFiles = unnamedFiles
        completions = EngineCompletions(unnamedFiles: unnamedFiles)
        _ = CurlGlobal.initialized
        // curl_multi_init fails only when out of memory; nothing sensible can run then.
        guard let multi = curl_multi_init() else { preconditionFailure("libcurl could not create a multi handle (out of memory)") }
        self.multi = multi
        sizeConnectionCache()
        let thread = Thread { [self] in
            ThreadName.setCurrent("ferry-engine")
            run()
        }
        thread.name = "ferry-engine"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues `command` for the engine thread and wakes it. Commands after shutdown are dropped
    /// (an `add` then fails its task as cancelled).
    func submit(_ command: Command) {
        // Only the first command of a batch wakes the engine: it takes every queued command at once.
        let accepted = inbox.withLock { inbox -> Bool? in
            guard !inbox.isShutDown else { return nil }
            let wakes = inbox.commands.isEmpty
            inbox.commands.append(command)
            if case .shutdown = command { inbox.isShutDown = true }
            return wakes
        }
        if let wakes = accepted {
            if wakes { curl_multi_wakeup(multi) }
        } else if case .add(let task, _, _) = command {
            task.finish(.failure(.cancelled))
        } else if case .setLimits(_, let done) = command {
            done()
        } else if case .setOverallLimits(_, let done) = command {
            done()
        }
    }

    /// Cancels every transfer, stops the thread and waits for it to end and for the
    /// completions of transfers that had ended.
    func shutdown() {
        let already = inbox.withLock { $0.isShutDown }
        if already { return }
        submit(.shutdown)
        stopped.wait()
        completions.finish()
        unnamedFiles.removeAll()
    }

    // MARK: - Engine thread

    private func run() {
        var shuttingDown = false
        while !shuttingDown {
            let commands = inbox.withLock { inbox in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            for command in commands {
                if case .shutdown = command {
                    shuttingDown = true
                } else {
                    perform(command)
                }
            }
            if shuttingDown { break }
            var running: Int32 = 0
            wakePaced()
            curl_multi_perform(multi, &running)
            collectFinished()
            unnamedFiles.expectTransfers(handles.count + held.count)
            var wake = wakePaced()
            if let split = budget.tick() {
                syncPaced()
                wake = min(wake ?? split, split)
            }
            // With no transfers, sleep until a command arrives (the hour is only a safety net);
            // a paced transfer's next turn comes sooner.
            var timeout: Int32 = handles.isEmpty ? 3_600_000 : 1000
            if let wake {
                timeout = Int32(max(1, min(Double(timeout), (wake * 1000).rounded(.up))))
            }
            pollWithBodies(timeout: timeout)
        }
        let waiting = held
        held.removeAll()
        for admission in waiting {
            cancelHeld(admission)
        }
        for id in Array(handles.keys) {
            cancel(id)
        }
        for raw in idleHandles {
            curl_easy_cleanup(raw)
        }
        idleHandles.removeAll()
        // After every easy handle that used it: their cleanups wrote the cookie jars.
        if let cookieShare { curl_share_cleanup(cookieShare) }
        cookieShare = nil
        curl_multi_cleanup(multi)
        stopped.signal()
    }

    /// `wakePaced()` lets the paced transfers whose time came go on, and returns the seconds
    /// until the next one may (`nil` when none waits).
    @discardableResult
    private func wakePaced() -> Double? {
        guard !paced.isEmpty else { return nil }
        var soonest: Double?
        for handle in paced.values {
            let now = handle.clockNow
            if let next = handle.wakeIfPaced(now: now) {
                soonest = min(soonest ?? (next - now), next - now)
            }
        }
        return soonest
    }

    /// `pollWithBodies(timeout:)` sleeps in `curl_multi_poll` until libcurl has work, a
    /// command arrives, `timeout` ms pass, or the body of a transfer that waits for it (a
    /// pipe) becomes readable; that transfer then goes on.
    private func pollWithBodies(timeout: Int32) {
        var waiting: [EasyHandle] = []
        var descriptors: [curl_waitfd] = []
        for handle in bodyWaiters.values {
            guard let descriptor = handle.bodyWaitDescriptor else { continue }
            waiting.append(handle)
            descriptors.append(curl_waitfd(fd: descriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0))
        }
        guard !descriptors.isEmpty else {
            curl_multi_poll(multi, nil, 0, timeout, nil)
            return
        }
        curl_multi_poll(multi, &descriptors, UInt32(descriptors.count), timeout, nil)
        // libcurl reports POLLIN only, but a writer that went away is a hang-up (the end of
        // the body): each descriptor is asked again, for both.
        for (handle, descriptor) in zip(waiting, descriptors) {
            var ready = pollfd(fd: descriptor.fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 0) > 0 { handle.bodyIsReady() }
        }
    }

    /// `syncPaced()` lets the engine wake every transfer the budget paces (see `wakePaced()`).
    private func syncPaced() {
        for handle in budget.handles where handle.isPaced || handle.pacedUntil != nil {
            paced[handle.task.id] = handle
        }
    }

    private func perform(_ command: Command) {
        switch command {
        case .add(let task, let delegate, let configuration):
            add(task, delegate: delegate, configuration: configuration)
        case .pause(let id):
            handles[id]?.pause()
        case .resume(let id):
            handles[id]?.unpause()
        case .cancel(let id):
            cancel(id)
        case .setLimits(let limits, let done):
            setLimits(limits)
            done()
        case .setOverallLimits(let overall, let done):
            budget.setLimits(overall)
            syncPaced()
            done()
        case .setReceiveCap(let id, let cap):
            guard let handle = handles[id] else { return }
            handle.receiveCap = cap
            if budget.limits.isLimiting {
                budget.capChanged()
            } else {
                handle.applyShares(download: nil, upload: nil, now: handle.clockNow)
            }
            syncPaced()
        case .shutdown:
            break
        }
    }

    /// `add(_:delegate:configuration:)` starts a transfer, or holds it back while its session
    /// runs `maximumActiveTransfers` (or that many per host) already; held transfers start in
    /// order as others end (`admitHeld()`).
    private func add(_ task: TransferTask, delegate: any TaskDelegate, configuration: SessionConfiguration) {
        guard task.state != .cancelled else { return }
        guard limits.isLimiting else {
            start(task, delegate: delegate, configuration: configuration, host: nil)
            return
        }
        let admission = Admission(task: task, delegate: delegate, configuration: configuration,
                                  host: HostKey.of(task.request.url.absoluteString))
        // Nothing held fits (`admitHeld()` ran when a place last freed): only this one may.
        if fits(admission) {
            start(task, delegate: delegate, configuration: configuration, host: admission.host)
        } else {
            held.append(admission)
        }
    }

    /// `fits(_:)` is true when `admission` may start under its session's limits now.
    private func fits(_ admission: Admission) -> Bool {
        if let limit = limits.maximumActiveTransfers, handles.count >= limit { return false }
        if let limit = limits.maximumActiveTransfersPerHost,
           activeByHost[admission.host, default: 0] >= limit { return false }
        return true
    }

    /// `setLimits(_:)` makes `limits` the session's admission limits: the held transfers that
    /// fit now start at once; running ones are never stopped (above a lowered limit, none
    /// starts until enough have ended). Transfers started without limits are counted by host
    /// from now on.
    private func setLimits(_ limits: AdmissionLimits) {
        if !self.limits.isLimiting, limits.isLimiting {
            for (id, handle) in handles {
                let host = HostKey.of(handle.task.request.url.absoluteString)
                hostOfActive[id] = host
                activeByHost[host, default: 0] += 1
            }
        }
        self.limits = limits
        sizeConnectionCache()
        admitHeld()
    }

    /// `sizeConnectionCache()` lets libcurl keep as many idle connections as `limits` can use
    /// at once (at least `minimumCachedConnections`). Left to its default, the cache holds four
    /// per transfer in the multi handle at that moment: when most transfers of a batch ended
    /// together, it closed the connections the next ones were about to reuse (98 connections
    /// for 5,000 small downloads at 16 at once, where 16 do).
    private func sizeConnectionCache() {
        let wanted = max(Engine.minimumCachedConnections, limits.maximumActiveTransfers ?? 0)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, wanted)
    }
    private static let minimumCachedConnections = 64

    /// `admitHeld()` starts the held transfers that fit now, in order (a transfer to a busy
    /// host does not keep one to another host waiting). Once the session's limit is reached,
    /// nothing after fits: the look stops there instead of taking each held task's lock (a
    /// queue may hand the session many times its limit ahead).
    private func admitHeld() {
        guard !held.isEmpty else { return }
        // The transfers that stay are moved up in place, in order: [0, kept) stay, [kept, index)
        // started or were cancelled, [index, end) were not looked at.
        var kept = 0
        var index = held.startIndex
        while index < held.endIndex {
            if let limit = limits.maximumActiveTransfers, handles.count >= limit { break }
            let admission = held[index]
            if admission.task.state != .cancelled {
                if fits(admission) {
                    start(admission.task, delegate: admission.delegate, configuration: admission.configuration,
                          host: admission.host)
                } else {
                    held.swapAt(kept, index)
                    kept += 1
                }
            }
            index += 1
        }
        held.removeSubrange(kept..<index)
    }

    /// `cancelHeld(_:)` ends a transfer that never started as cancelled.
    private func cancelHeld(_ admission: Admission) {
        let outcome = admission.delegate.task(admission.task, didCompleteWith: .failure(.cancelled), bytesSent: 0)
        admission.task.finish(outcome.flatMap { _ in .failure(.cancelled) })
    }

    /// `release(_:)` gives back the per-host place of a transfer that left the multi handle.
    private func release(_ id: Int) {
        guard let host = hostOfActive.removeValue(forKey: id) else { return }
        let left = activeByHost[host, default: 1] - 1
        activeByHost[host] = left > 0 ? left : nil
    }

    /// `start(_:delegate:configuration:host:)` runs the task's `onStart` handlers, then makes
    /// its easy handle and adds it to the multi handle (or ends the task when that fails).
    private func start(_ task: TransferTask, delegate: any TaskDelegate, configuration: SessionConfiguration, host: String?) {
        task.transportDidStart()
        guard let handle = EasyHandle(task: task, delegate: delegate, configuration: configuration,
                                      reusing: idleHandles.popLast()) else {
            task.finish(.failure(.transport(.other(code: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl could not create a handle"))))
            return
        }
        if task.request.usesNetrc, task.request.netrcFile == nil {
            handle.netrcIsMissing = netrc.defaultFileIsAbsent()
        }
        if handle.usesCookies {
            if cookieShare == nil { cookieShare = ccurl_share_cookies() }
            handle.cookieShare = cookieShare
        }
        handle.startingShare = budget.startingShare
        do throws(FerryError) {
            try handle.configure()
        } catch {
            task.finish(delegate.task(task, didCompleteWith: .failure(error), bytesSent: 0))
            return
        }
        handles[task.id] = handle
        budget.add(handle)
        if handle.isPaced || handle.yieldPending { paced[task.id] = handle }
        if handle.bodyMayWait { bodyWaiters[task.id] = handle }
        if let host {
            hostOfActive[task.id] = host
            activeByHost[host, default: 0] += 1
        }
        if task.state == .paused { handle.pause() }
        curl_multi_add_handle(multi, handle.raw)
    }

    private func cancel(_ id: Int) {
        paced.removeValue(forKey: id)
        bodyWaiters.removeValue(forKey: id)
        budget.remove(id)
        guard let handle = handles.removeValue(forKey: id) else {
            if let index = held.firstIndex(where: { $0.task.id == id }) {
                cancelHeld(held.remove(at: index))
            }
            return
        }
        curl_multi_remove_handle(multi, handle.raw)
        release(id)
        keepIdle(handle)
        let outcome = handle.delegate.task(handle.task, didCompleteWith: .failure(.cancelled), bytesSent: handle.bytesSent)
        handle.task.finish(outcome.flatMap { _ in .failure(.cancelled) })
        admitHeld()
    }

    /// `keepIdle(_:)` keeps the libcurl handle of a transfer that left the multi handle for the
    /// next transfer, while fewer than `idleHandleLimit` wait.
    private func keepIdle(_ handle: EasyHandle) {
        guard idleHandles.count < Engine.idleHandleLimit, !handle.usesCookies else { return }
        idleHandles.append(handle.recycle())
    }

    private func collectFinished() {
        var ended: [EngineCompletions.Completion] = []
        defer { completions.hand(ended) }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var context: UnsafeMutableRawPointer?
            _ = ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &context)
            guard let context else { continue }
            let handle = Unmanaged<EasyHandle>.fromOpaque(context).takeUnretainedValue()
            curl_multi_remove_handle(multi, easy)
            // A redirect: the same transfer goes on at the next hop (see `EasyHandle.followRedirect`).
            if handle.followRedirect(code: code) {
                curl_multi_add_handle(multi, easy)
                continue
            }
            handles.removeValue(forKey: handle.task.id)
            paced.removeValue(forKey: handle.task.id)
            bodyWaiters.removeValue(forKey: handle.task.id)
            budget.remove(handle.task.id)
            release(handle.task.id)
            let transport = handle.transportResult(code: code)
            keepIdle(handle)
            handle.publishFinalProgress()
            // The delegate's last callback (a download's sync and final name) runs on the
            // completion and naming threads, so that slow disks do not hold up the other
            // transfers; the engine never touches this delegate again, which hands it over.
            handle.task.transportDidEnd()
            ended.append(EngineCompletions.Completion(task: handle.task, delegate: handle.delegate, transport: transport,
                                    bytesSent: handle.bytesSent))
        }
        if !ended.isEmpty { admitHeld() }
    }
}
