import FerryKit
import Foundation

/// `ResumableDownloadDelegateFactory` makes FerryKit's `ResumableDownloadDelegate` for each
/// download attempt of the `Scheduler`, so an interrupted download resumes instead of
/// starting over; the scheduler's default.
///
/// Each attempt resumes from the task's journal `ResumeRecord` (the `.part` beside the
/// destination, truncated to the durable offset, `Range` with `If-Range`), and every durable
/// checkpoint is written with `Journal.recordCheckpoint(_:_:)` on the engine thread, after
/// the `.part` was synchronized: a single-row update of a few microseconds in WAL mode, as
/// `ferry get` does. A reply that restarts the file (a 200) records offset 0 before the old
/// bytes are destroyed. The task's checksum and Content-Disposition choice go into its
/// `DownloadPolicy`; the delegate checks the checksum before the final name, so the
/// scheduler does not hash the file again.
public struct ResumableDownloadDelegateFactory: DownloadDelegateFactory {
    /// `journal` receives the checkpoints.
    public let journal: Journal
    /// `checkpointInterval` is the seconds between checkpoints;
    /// `DownloadPolicy.defaultCheckpointInterval` (1) by default, `nil` or `0` for none.
    public var checkpointInterval: Double?

    /// `usesUnnamedFiles` lets a small download of a task that never ran skip its `.part`
    /// (`DownloadPolicy.commitMark`): faster for many small files, but a dropped connection
    /// then starts it over instead of resuming; `true` by default (the queue), `false` for
    /// `ferry get`.
    public var usesUnnamedFiles = true

    /// `defaultConnections` is the connections of a download whose task names none; `1` by default.
    public var defaultConnections = 1

    /// `defaultMinSplitSize` is the smallest range split of a task that names none;
    /// `SegmentedDownload.defaultMinSplitSize` by default.
    public var defaultMinSplitSize = SegmentedDownload.defaultMinSplitSize

    /// `sourceNote` hears, in words, what a download from several sources does about one it
    /// dropped ("... answered 404; trying the next mirror"); the scheduler publishes each as a
    /// `SchedulerEvent.note`.
    var sourceNote: @Sendable (TaskID, String) -> Void = { _, _ in }

    /// `journalIdentity` is `journal.identity()`, the first part of the tasks' `CommitMark`s;
    /// `nil` when it could not be read (every download then uses a `.part`).
    let journalIdentity: Int64?

    /// `init(journal:checkpointInterval:)` makes a factory checkpointing into `journal`.
    public init(journal: Journal, checkpointInterval: Double? = DownloadPolicy.defaultCheckpointInterval) {
        self.journal = journal
        self.checkpointInterval = checkpointInterval
        journalIdentity = try? journal.identity()
    }

    /// `commitMark(for:)` is the mark of a task's download: this journal's identity and the
    /// task's id. The scheduler looks for it after a crash (`Scheduler.committedOutcome`).
    public func commitMark(for id: TaskID) -> CommitMark? {
        journalIdentity.map { CommitMark(value: "\($0)-\(id.rawValue)") }
    }

    /// `verifiesChecksum` is `true`: the delegate checks the digest before the final name.
    public var verifiesChecksum: Bool { true }

    /// `makeDelegate(for:destination:)` returns a `ResumableDownloadDelegate` resuming from
    /// `record.resume`.
    public func makeDelegate(for record: TaskRecord, destination: DownloadDestination) -> any TaskDelegate {
        var policy = DownloadPolicy(
            checkpointInterval: checkpointInterval,
            expectedChecksum: record.spec.checksum.flatMap(Self.expected),
            usesContentDisposition: record.spec.useContentDisposition
        )
        // The scheduler removes the .part once the journal says done.
        policy.keepsPartialNameAfterCommit = true
        // Every .part of the task carries its mark: another's .part is never used or removed.
        policy.owner = commitMark(for: record.id)
        // A response's mirrors and digest are kept with the task (Metalink/HTTP).
        policy.readsMetalinkHTTP = !record.spec.connection.ignoresMetalinkHTTP
        // A task that never ran has no .part to reuse or remove: a small one can do without.
        if usesUnnamedFiles, record.startedAt == nil {
            policy.commitMark = commitMark(for: record.id)
        }
        let journal = self.journal
        let id = record.id
        if let segmented = segmentedDelegate(for: record, destination: destination, policy: policy) {
            return segmented
        }
        return ResumableDownloadDelegate(destination: destination, policy: policy, resumeFrom: record.resume.resumeData,
                                         checkpoint: { data in
            // Best effort: a journal that cannot be written must not stop the bytes; the next
            // checkpoint or the outcome tries again.
            try? journal.recordCheckpoint(id, ResumeRecord(data))
        }, sourcesFound: keeping(id))
    }

    /// `segmentedDelegate(for:destination:policy:)` is a `SegmentedDownload` for a task
    /// allowed several connections, or one that has ranges recorded (it was split before:
    /// it resumes every range, with however many connections it has now); `nil` otherwise.
    func segmentedDelegate(for record: TaskRecord, destination: DownloadDestination, policy: DownloadPolicy) -> (any TaskDelegate)? {
        var connections = record.spec.options.connections ?? defaultConnections
        let sources = Sources(record, journal: journal)
        if sources.used { connections = record.spec.options.connections ?? Self.sourceConnections(urls: record.spec.urls.count) }
        let resume = record.resume.resumeData
        // Only a task that has bytes on disk can have ranges recorded: no read for the others.
        var ranges: [Segment] = []
        if resume?.canResume == true {
            do {
                ranges = try journal.segments(of: record.id)
            } catch {
                // The ranges cannot be read: the durable offset alone would be misread as a
                // contiguous prefix, so the download starts over (split, whatever N is).
                return segmented(record, destination: destination, policy: policy, resume: nil, ranges: [], connections: connections,
                                 sources: sources)
            }
        }
        guard connections > 1 || !ranges.isEmpty else { return nil }
        return segmented(record, destination: destination, policy: policy, resume: resume, ranges: ranges, connections: connections,
                         sources: sources)
    }

    /// `sourceConnections(urls:)` is the connections of a download fetched from `urls` sources
    /// at once that names none: two per source, at most `SegmentedDownload.maximumConnections`.
    public static func sourceConnections(urls: Int) -> Int {
        min(SegmentedDownload.maximumConnections, 2 * urls)
    }

    /// `usesSources(_:)` is true when a new task is fetched from all its URLs at once: it has
    /// two or more and piece hashes or a checksum (what `Sources` decides at its start).
    public static func usesSources(_ task: NewTask) -> Bool {
        task.spec.urls.count > 1 && task.spec.upload == nil && (task.pieceHashes != nil || task.spec.checksum != nil)
    }

    /// `Sources` say whether a download is fetched from all its URLs at once: only when
    /// something proves that they serve the same file (its piece hashes or its whole-file
    /// hash; mirrors' ETags differ), else its mirrors stay fallbacks tried one at a time.
    struct Sources {
        var used = false
        var mirrors: [URL] = []
        var hashes: PieceHashes?
        var verified: Set<Int> = []

        init(_ record: TaskRecord, journal: Journal) {
            guard record.spec.urls.count > 1, record.spec.upload == nil else { return }
            if let pieces = try? journal.pieces(of: record.id) {
                hashes = pieces.hashes
                verified = pieces.verified
            }
            guard hashes != nil || record.spec.checksum != nil else { return }
            used = true
            mirrors = record.spec.urls.compactMap { URL(string: $0.string) }
        }
    }

    /// `segmented(_:destination:policy:resume:ranges:connections:)` makes the `SegmentedDownload`
    /// of a task, checkpointing into the journal.
    private func segmented(_ record: TaskRecord, destination: DownloadDestination, policy: DownloadPolicy, resume: ResumeData?,
                           ranges: [Segment], connections: Int, sources: Sources) -> any TaskDelegate {
        var policy = policy
        policy.commitMark = nil
        let journal = self.journal
        let id = record.id
        return SegmentedDownload(
            destination: destination, policy: policy, resumeFrom: resume,
            ranges: ranges.compactMap { segment in
                segment.end.map { SegmentRange(start: segment.start, end: $0, durableOffset: segment.durableOffset) }
            },
            connections: connections,
            minSplitSize: record.spec.options.minSplitSize ?? defaultMinSplitSize,
            mirrors: sources.mirrors, perSourceConnections: sources.used ? max(2, (connections + sources.mirrors.count - 1) / max(1, sources.mirrors.count)) : nil,
            pieceHashes: sources.hashes, verifiedPieces: sources.verified,
            checkpoint: { data, ranges in
                // Best effort, as for a single stream: the next checkpoint or the outcome tries again.
                try? journal.recordSegmentedCheckpoint(id, ResumeRecord(data), segments: ranges.map {
                    Segment(start: $0.start, end: $0.end, durableOffset: $0.durableOffset)
                })
            },
            piecesVerified: { pieces in
                // Best effort: a piece not recorded checked is checked again after a crash.
                try? journal.recordVerifiedPieces(pieces, for: id)
            },
            sourceNote: { [sourceNote] text in sourceNote(id, text) },
            sourcesFound: keeping(id))
    }

    /// `keeping(_:)` keeps the mirrors and digest a response of task `id` named (best effort:
    /// a download goes on without them), so its next attempt, after a failure or a restart,
    /// fetches from all its sources with the digest checked; `sourceNote` hears what they are.
    func keeping(_ id: TaskID) -> @Sendable (MetalinkHTTP) -> Void {
        let journal = self.journal
        let note = sourceNote
        return { found in
            try? journal.addSources(id, found: found)
            note(id, Self.describe(found))
        }
    }

    /// `describe(_:)` says what a response named: "the server names 2 mirrors and a sha-256
    /// digest (Metalink/HTTP)".
    static func describe(_ found: MetalinkHTTP) -> String {
        var parts: [String] = []
        if !found.mirrors.isEmpty { parts.append(found.mirrors.count == 1 ? "1 mirror" : "\(found.mirrors.count) mirrors") }
        if let checksum = found.checksum { parts.append("a \(checksum.algorithm.rawValue) digest") }
        return "the server names \(parts.joined(separator: " and ")) (Metalink/HTTP)"
    }

    /// `expected(_:)` is FerryKit's form of a task's checksum.
    static func expected(_ checksum: Checksum) -> ExpectedChecksum? {
        checksum.expected
    }
}
