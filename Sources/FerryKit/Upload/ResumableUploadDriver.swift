import Foundation
import Synchronization

/// `ResumableUploadDriver` presents a ``ResumableUpload`` (several requests: a probe, the
/// creation, offset queries, appends) as one ``TransferTask``: the task's progress is its
/// current request's (counting the bytes already on the server), its outcome the upload's,
/// and a cancel stops whichever request runs and the upload with it (the resume data stays:
/// the next task of the same store resumes). A paused task is not held: pause, like cancel,
/// is for the owner to decide (a queue cancels and later starts a new task).
///
/// State is under one lock; the upload itself runs in a Swift task of its own.
final class ResumableUploadDriver: TaskDelegate, TransferDriver, @unchecked Sendable {
    private struct State {
        var current: TransferTask?
        var runner: Task<Void, Never>?
        var cancelled = false
    }

    private let session: SessionManager
    private let files: [String]
    private let options: ResumableUploadOptions
    private let store: any UploadResumeStore
    private let sink: (any ReplySink)?
    private let note: @Sendable (String) -> Void
    private let state = Mutex(State())

    init(session: SessionManager, files: [String], options: ResumableUploadOptions, store: any UploadResumeStore,
         sink: (any ReplySink)?, note: @escaping @Sendable (String) -> Void) {
        self.session = session
        self.files = files
        self.options = options
        self.store = store
        self.sink = sink
        self.note = note
    }

    // The task is driven here, never by the engine: these are not called.
    var receivedBytes: Int64 { 0 }
    var expectedReceivedBytes: Int64? { nil }
    func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {}
    func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {}
    func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        result.map { TransferResult(response: $0, bytesSent: bytesSent) }
    }

    func start(_ face: TransferTask) {
        face.transportDidStart()
        let upload = ResumableUpload(session: session, request: face.request, files: files, options: options, store: store, sink: sink,
                                     note: note) { [self] attempt in
            let cancelled = self.state.withLock { state -> Bool in
                state.current = attempt
                return state.cancelled
            }
            if cancelled { attempt.cancel() }
        }
        // The current request's progress is the task's.
        let token = session.observe { [self] event in
            guard case .progress(let id, let progress) = event, id != face.id, progress.expectedSentBytes != nil,
                  self.state.withLock({ $0.current?.id == id }) else { return }
            face.publish(progress: progress)
        }
        let (session, files, options, store) = (session, files, options, store)
        let runner = Task {
            let outcome = await upload.run()
            session.removeObserver(token)
            if case .failure(.cancelled) = outcome {
                // Paused or stopped: the offset the server has now is what the task shows until
                // it runs again (asked outside this cancelled task, by an upload whose requests
                // this cancelled driver does not cancel).
                let settling = ResumableUpload(session: session, request: face.request, files: files, options: options, store: store)
                await Task { await settling.settleOffset() }.value
            }
            if case .success(let result) = outcome { face.record(response: result.response) }
            face.transportDidEnd()
            face.finish(outcome)
        }
        let cancelled = state.withLock { state -> Bool in
            state.runner = runner
            return state.cancelled
        }
        if cancelled { runner.cancel() }
    }

    func pause(_ task: TransferTask) {}

    func resume(_ task: TransferTask) {}

    func cancel(_ task: TransferTask) {
        let (runner, current) = state.withLock { state in
            state.cancelled = true
            return (state.runner, state.current)
        }
        runner?.cancel()
        current?.cancel()
    }
}

extension SessionManager {
    /// `resumableUploadTask(with:files:options:store:sink:note:)` is one task that sends
    /// `request`'s body as a resumable upload (``ResumableUpload``): the IETF protocol or tus,
    /// resumed after a dropped connection in the same task, and from `store`'s resume data by
    /// a later task (another process's too). `files` are the files the body reads; `note`
    /// hears each decision in words ("resuming upload at 6.2 GiB of 10 GiB").
    ///
    /// ```swift
    /// let task = session.resumableUploadTask(with: request, files: [path], store: store)
    /// task.resume()
    /// let result = try await task.result   // cancel() keeps the resume data in store
    /// ```
    public func resumableUploadTask(with request: Request, files: [String], options: ResumableUploadOptions = ResumableUploadOptions(),
                                    store: any UploadResumeStore, sink: (any ReplySink)? = nil,
                                    note: @escaping @Sendable (String) -> Void = { _ in }) -> TransferTask {
        let driver = ResumableUploadDriver(session: self, files: files, options: options, store: store, sink: sink, note: note)
        return task(kind: .upload, request: request, delegate: driver)
    }
}
