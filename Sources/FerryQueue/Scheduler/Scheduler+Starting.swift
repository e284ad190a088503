import FerryKit
import Foundation

/// Starting tasks: `fill()` hands the chosen tasks to the session with one journal write (their
/// file names reserved, their rows still `queued`: the session may hold them ahead of need),
/// then each gets its request, delegate and transfer on the main session.
extension Scheduler {
    /// `fill(realSlotsOnly:)` starts queued tasks while slots are free (with `realSlotsOnly`,
    /// none to hand ahead): candidates come from `upcoming` first, then from journal reads,
    /// and the round costs one commit, which also marks `running` the started tasks that fit
    /// (`marksThatFit()`). Tasks whose host is at
    /// its limit are skipped for this round; a few more pages are read to find others.
    /// Candidates read but not started are kept in `upcoming` (at most `upcomingLimit`), so a
    /// slot that frees usually needs no journal read.
    func fill(realSlotsOnly: Bool = false) {
        let chosen = claimFileNames(chooseCandidates(realSlotsOnly: realSlotsOnly))
        // While files finish, their record comes soon and takes the marks along: none is
        // written on its own then.
        let marks = chosen.isEmpty && finishingCount > 0 ? [] : marksThatFit()
        guard !chosen.isEmpty || !marks.isEmpty else { return }
        let written: (started: [TaskID], states: [TaskState?], handed: [TaskID])
        do {
            written = try journal.recordRound(started: marks, outcomes: [], handing: Scheduler.ids(of: chosen),
                                              fileNames: Scheduler.fileNames(of: chosen))
        } catch {
            lastJournalError = error
            claims.removeAll()
            startsToMark.insert(contentsOf: marks, at: 0)
            return
        }
        start(chosen, moved: Set(written.handed))
        recordMarks(marks, moved: written.started)
    }

    /// `Candidate` is a task chosen for a free slot, with the URL it starts from and its host.
    typealias Candidate = (TaskRecord, TransferURL, String)

    /// `ids(of:)` are the candidates' task ids, in order. Static, so its closure is not
    /// isolated to the actor (see `chooseCandidates`).
    static func ids(of candidates: [Candidate]) -> [TaskID] {
        candidates.map { $0.0.id }
    }

    /// `start(_:moved:)` starts the chosen tasks the journal handed over (`moved`: still queued).
    func start(_ chosen: [Candidate], moved: Set<TaskID>) {
        // Names are checked for this round only: one not started now is checked again.
        defer { claims.removeAll() }
        if moved.count < chosen.count {
            dropUpcoming()
        }
        for (record, url, host) in chosen where moved.contains(record.id) {
            start(record, url: url, hostKey: host)
        }
    }

    /// `start(_:url:hostKey:)` makes and resumes the transfer of a task handed over (its row is
    /// marked `running` once the session starts it); a task that cannot even be built (an
    /// upload's file is gone) ends at once.
    func start(_ record: TaskRecord, url: TransferURL, hostKey: String) {
        let lane: SessionLane
        let transfer: TransferTask
        var partPath: String?
        do throws(FerryError) {
            if let upload = record.spec.upload {
                lane = mainLane
                let mode = upload.resumable.flatMap(ResumableUploadOptions.Mode.init(rawValue:))
                let boundary = mode == nil ? nil : JournalUploadResumeStore.boundary(forKey: JournalUploadResumeStore.taskKey(record.id))
                var request = try Scheduler.uploadRequest(url: url, upload: upload, headers: record.spec.headers, boundary: boundary)
                configuration.applyConnection(to: &request, task: record.spec.connection)
                if let mode {
                    // One request sequence per attempt: the retries (and their backoff) are the
                    // queue's, each one resuming from the server's offset.
                    let options = ResumableUploadOptions(mode: mode, maximumStalledAttempts: 1, keptReplyBytes: UploadReply.bodyLimit)
                    transfer = lane.session.resumableUploadTask(with: request, files: upload.bodyFile.map { [$0] } ?? upload.files.map(\.path),
                                                                options: options, store: JournalUploadResumeStore(journal: journal, task: record.id))
                } else {
                    transfer = lane.session.task(kind: .upload, request: request, delegate: ReplyTaskDelegate(keeping: UploadReply.bodyLimit))
                }
            } else {
                lane = mainLane
                let claim = claims.removeValue(forKey: record.id)
                let parsed: URL
                if let known = claim?.parsed { parsed = known } else { parsed = try Scheduler.parse(url) }
                let destination = try destination(for: record, url: url, parsed: parsed)
                // Only a task that ran before can have committed its file before a kill.
                if record.startedAt != nil,
                   let committed = committedOutcome(of: record, destination: destination, url: url) {
                    hub.publish(.started(record.id))
                    conclude(record.id, record: record, outcome: committed, intent: nil, response: nil)
                    return
                }
                // The .part this task's delegate uses (another's .part at the name is skipped;
                // a name just claimed had none).
                if claim?.partIsFree == true {
                    partPath = destination.partialFilePath
                } else {
                    partPath = destination.partialFilePath(for: delegateFactory.commitMark(for: record.id),
                                                           resuming: record.resume.resumeData?.canResume == true)
                }
                var request = Request(url: parsed, headers: Scheduler.headers(record.spec.headers))
                // A resume goes to the URL that served the bytes (the secrets stay bound to the
                // origin they were given for); after a mirror failed, to the mirror's own URL.
                if attempts.mirror(of: record.id) == 0, let resume = record.resume.resumeData, resume.canResume,
                   let finalURL = resume.finalURL {
                    request = request.moved(to: finalURL)
                }
                request.maximumReceiveSpeed = Scheduler.speedCap(of: record)
                configuration.applyConnection(to: &request, task: record.spec.connection)
                if let limit = configuration.lowSpeedLimit { request.lowSpeedLimit = limit }
                if let time = configuration.lowSpeedTime { request.lowSpeedTime = time }
                let delegate = delegateFactory.makeDelegate(for: record, destination: destination)
                transfer = lane.session.task(kind: .download, request: request, delegate: delegate)
            }
        } catch {
            hub.publish(.started(record.id))
            conclude(record.id, record: record, outcome: .failure(error), intent: nil, response: nil)
            return
        }
        if let partPath { destinationsInUse.insert(partPath) }
        running[record.id] = RunningTask(record: record, hostKey: hostKey, lane: lane,
                                         transfer: transfer, partPath: partPath)
        lane.register(transfer, as: record.id)
        let id = record.id
        // `started` and `transferred` are published on the engine thread, when the session
        // starts the transfer (it may hold it back, see `stagesTransfers`) and when its network
        // part is over: in the order they happen, so at most the limit are between the two.
        transfer.onStart { [weak self, hub] in
            hub.publish(.started(id))
            self?.hand(over: .started(id, transfer))
        }
        let checksum = record.spec.upload == nil && !delegateFactory.verifiesChecksum ? record.spec.checksum : nil
        if let checksum {
            // A delegate that does not check the digest itself: hash the file off the actor.
            Task { [weak self] in
                var outcome = await transfer.outcome()
                if case .success(let result) = outcome, let file = result.fileURL {
                    outcome = checksum.verify(file: file).map { result }
                }
                self?.transferFinished(id, transfer: transfer, outcome: outcome)
            }
        } else {
            transfer.onFinish { [weak self] outcome in
                self?.transferFinished(id, transfer: transfer, outcome: outcome)
            }
        }
        transfer.onTransportEnd { [weak self, hub] in
            hub.publish(.transferred(id))
            self?.hand(over: .transportEnded(id, transfer))
        }
        transfer.resume()
    }

    /// `directoryPrototype(_:)` is a destination in the directory at `path` (its file name is
    /// still to be set).
    func directoryPrototype(_ path: String) -> DownloadDestination {
        if let known = directories[path] { return known }
        if directories.count >= Scheduler.directoryCacheLimit { directories.removeAll() }
        let made = DownloadDestination(directory: URL(fileURLWithPath: path, isDirectory: true), fileName: "")
        directories[path] = made
        return made
    }

    /// `speedCap(of:)` is a download's `max-download-limit`, carried by its request; `nil`
    /// for the others and for uploads.
    static func speedCap(of record: TaskRecord) -> Int64? {
        record.spec.upload == nil ? record.spec.options.maxDownloadLimit : nil
    }

    /// `currentURL(of:)` is the URL a task runs from: its first, or the mirror it moved on to.
    func currentURL(of record: TaskRecord) -> TransferURL {
        let index = attempts.mirror(of: record.id)
        return record.spec.urls[min(index, record.spec.urls.count - 1)]
    }
}
