import Foundation

/// `SourceState` is one source of a download fetched from several at once: its URL, how many
/// connections it may have, what it served and whether it is still used.
struct SourceState: Sendable {
    let url: URL
    /// The most connections it gets at once (lowered when it refuses one: a 503, a 429).
    var cap: Int
    /// Its own validator, learned from its first reply (mirrors' ETags differ).
    var ifRange: String?
    /// Bytes it served that were written.
    var bytes: Int64 = 0
    /// Seconds its connections ran, for its speed.
    var seconds: Double = 0
    /// Pieces it served that failed their hash.
    var badPieces = 0
    /// Replies it refused or connections that failed without a byte.
    var failures = 0
    /// Why it is no longer used; `nil` while it is.
    var dropped: String?

    var speed: Double { seconds > 0 ? Double(bytes) / seconds : 0 }
}

/// `SourceReport` is what a download from several sources says of one of them (RPC
/// `getServers`, `ferry list --json`).
public struct SourceReport: Sendable, Equatable {
    public let url: URL
    /// `active` (connections open), `waiting`, `demoted` (it served a corrupt piece) or
    /// `dropped`.
    public let state: String
    public let connections: Int
    public let bytes: Int64
    /// Bytes per second of its open connections together.
    public let speed: Int64
    public let badPieces: Int
    /// Why it was dropped.
    public let reason: String?

    public init(url: URL, state: String, connections: Int, bytes: Int64, speed: Int64, badPieces: Int, reason: String?) {
        self.url = url
        self.state = state
        self.connections = connections
        self.bytes = bytes
        self.speed = speed
        self.badPieces = badPieces
        self.reason = reason
    }
}

extension SegmentedDownload {
    /// `maximumBadPieces` is how many corrupt pieces a source serves before it is dropped.
    public static let maximumBadPieces = 2
    /// `maximumSourceFailures` is how many refusals or failed connections a source has before
    /// it is dropped.
    static let maximumSourceFailures = 3

    /// `sourceReports()` is every source's state now.
    public func sourceReports() -> [SourceReport] {
        state.withLock { reports($0) }
    }

    /// `reports(_:)` is every source's state in `state`: its bytes count its open connections'
    /// too, its speed is theirs together (0 without one).
    func reports(_ state: State) -> [SourceReport] {
        let now = clock.now()
        return state.sources.indices.map { index in
            let source = state.sources[index]
            var open = 0
            var bytes = source.bytes
            var rate = 0.0
            for entry in state.connections.values where entry.source == index && !entry.stoppedByUs {
                open += 1
                bytes += entry.bytes
                rate += Double(entry.bytes) / max(0.5, now - entry.started)
            }
            let word = source.dropped != nil ? "dropped" : source.badPieces > 0 ? "demoted" : open > 0 ? "active" : "waiting"
            return SourceReport(url: source.url, state: word, connections: open, bytes: bytes,
                                speed: Int64(rate), badPieces: source.badPieces, reason: source.dropped)
        }
    }

    // MARK: - Under the lock

    /// `chooseSource(_:adding:leaving:)` is the source the next connection goes to: one still
    /// used with room under its cap (counting the connections being opened, `adding`), those
    /// that served no corrupt piece first, then the least busy, then the fastest, then the
    /// first in order; `leaving` is passed over while another has room. `nil` when none has room.
    func chooseSource(_ state: State, adding: [Int], leaving: Int? = nil) -> Int? {
        var open = [Int](repeating: 0, count: state.sources.count)
        for entry in state.connections.values where !entry.stoppedByUs && entry.source < open.count { open[entry.source] += 1 }
        for source in adding where source < open.count { open[source] += 1 }
        let usable = state.sources.indices.filter { state.sources[$0].dropped == nil && open[$0] < state.sources[$0].cap }
        let preferred = usable.filter { $0 != leaving }
        return (preferred.isEmpty ? usable : preferred).min { a, b in
            let left = state.sources[a], right = state.sources[b]
            if (left.badPieces > 0) != (right.badPieces > 0) { return left.badPieces == 0 }
            if open[a] != open[b] { return open[a] < open[b] }
            if left.speed != right.speed { return left.speed > right.speed }
            return a < b
        }
    }

    /// `usableSources(_:)` is how many sources are still used.
    func usableSources(_ state: State) -> Int {
        state.sources.filter { $0.dropped == nil }.count
    }

    /// `acceptFromMirror(_:range:source:total:number:state:)` checks a mirror's reply to a
    /// range: only a 206 with exactly that range of the same total is written. A mirror whose
    /// length differs, or that answers the range with the whole file, is dropped; one that
    /// refuses it counts a failure.
    func acceptFromMirror(_ response: HTTPResponse, range: (first: Int64, last: Int64), source: Int, total: Int64, number: Int,
                          state: inout State, actions: inout Actions) throws(FerryError) {
        let header = response.headers["Content-Range"] ?? ""
        func refuse(dropping reason: String?) throws(FerryError) -> Never {
            state.connections[number]?.refused = true
            state.connections[number]?.status = response
            if let reason { drop(source, because: reason, state: &state, actions: &actions) }
            throw .integrity(.resumeRejected("\(URLMasking.mask(state.sources[source].url)): \(reason ?? "answered \(response.statusCode)")"))
        }
        guard response.statusCode == 206 else {
            if response.isSuccess { try refuse(dropping: "answered \(response.statusCode) to a range request") }
            if [429, 503].contains(response.statusCode) {
                // Busy: it allows fewer connections.
                let open = state.connections.values.filter { $0.source == source && !$0.stoppedByUs }.count
                state.sources[source].cap = max(1, open - 1)
            }
            state.connections[number]?.refused = true
            state.connections[number]?.status = response
            return
        }
        guard case .bytes(let first, let last, let replyTotal?)? = ContentRange(parsing: header) else {
            try refuse(dropping: "sent \"\(header.printable)\" for a range")
        }
        guard replyTotal == total else { try refuse(dropping: "its file is \(replyTotal) bytes, not \(total)") }
        guard first == range.first, last == range.last else {
            try refuse(dropping: "asked for bytes \(range.first)-\(range.last), it sent \"\(header.printable)\"")
        }
        let validator = response.headers["ETag"].flatMap(ResumeData.strongETag) ?? response.headers["Last-Modified"]?.trimmingBlanks()
        if let known = state.sources[source].ifRange, let validator, known != validator {
            try refuse(dropping: "its file changed (\(validator.printable), was \(known.printable))")
        }
        state.sources[source].ifRange = state.sources[source].ifRange ?? validator
        state.connections[number]?.accepted = true
    }

    /// `drop(_:because:state:actions:)` stops using a source: its connections are stopped
    /// (their ranges go on from another source).
    func drop(_ source: Int, because reason: String, state: inout State, actions: inout Actions) {
        guard source < state.sources.count, state.sources[source].dropped == nil else { return }
        state.sources[source].dropped = reason
        let othersRunning = state.connections.values.contains { $0.source != source && !$0.stoppedByUs }
        for (number, entry) in state.connections where entry.source == source && !entry.stoppedByUs {
            state.connections[number]?.stoppedByUs = true
            actions.cancel.append(entry.task)
        }
        guard usableSources(state) > 0 else { return }
        let next = othersRunning ? "going on with the other mirrors" : "trying the next mirror"
        actions.notes.append("\(URLMasking.mask(state.sources[source].url)) \(reason); \(next)")
    }

    /// `sourceEnded(_:failure:state:)` counts what a connection of a download from several
    /// sources ended with for its source: its bytes and time, and a failure (a refusal, or a
    /// connection that failed without a byte) towards dropping it. Whether the download can go
    /// on is whether a source is still used.
    func sourceEnded(_ entry: Connection, failure: FerryError?, state: inout State, actions: inout Actions) -> Bool {
        let source = entry.source
        guard source < state.sources.count else { return usableSources(state) > 0 }
        state.sources[source].bytes += entry.bytes
        state.sources[source].seconds += max(0, clock.now() - entry.started)
        if let failure, entry.refused || entry.bytes == 0 {
            state.sources[source].failures += 1
            let status = entry.status.map { $0.statusCode }
            if let status, (400..<500).contains(status), status != 429 {
                drop(source, because: "answered \(status)", state: &state, actions: &actions)
            } else if state.sources[source].failures >= Self.maximumSourceFailures {
                drop(source, because: failure.description, state: &state, actions: &actions)
            }
        }
        return usableSources(state) > 0
    }

    /// `discoverSources(in:_:actions:)` reads the first accepted response of the first source
    /// for Metalink/HTTP (`policy.readsMetalinkHTTP`): its digest checks the file when nothing
    /// else does, and its `rel=duplicate` mirrors become sources of a download given none,
    /// when a hash can tell whether they serve the same bytes (the connections are spread:
    /// each source at most `ceil(connections / sources)`, at least 2). What it named is handed
    /// to `sourcesFound`.
    func discoverSources(in response: HTTPResponse, _ state: inout State, actions: inout Actions) {
        guard policy.readsMetalinkHTTP, !state.readMetalinkHTTP else { return }
        state.readMetalinkHTTP = true
        let found = MetalinkHTTP(response: response)
        guard !found.isEmpty else { return }
        actions.found = found
        if state.expected == nil { state.expected = found.checksum }
        guard mirrors.isEmpty, state.expected != nil || pieceHashes != nil else { return }
        let known = Set(state.sources.map(\.url.absoluteString))
        let added = found.mirrors.filter { !known.contains($0.absoluteString) }
        guard !added.isEmpty else { return }
        let count = state.sources.count + added.count
        let cap = max(2, (connectionLimit + count - 1) / count)
        for index in state.sources.indices { state.sources[index].cap = min(state.sources[index].cap, cap) }
        state.sources += added.map { SourceState(url: $0, cap: cap) }
    }

    // MARK: - Pieces

    /// `verifyPieces(touching:_:actions:)` checks every piece with a byte in `written` that is
    /// now whole: its bytes are read back from the file (what the connections gathered is
    /// written first). A corrupt piece is fetched again (``rejectPiece``).
    func verifyPieces(touching written: Range<Int64>, _ state: inout State, actions: inout Actions) throws(FerryError) {
        guard let hashes = pieceHashes, let plan = state.plan, hashes.covers(total: plan.total),
              let indices = hashes.indices(overlapping: written) else { return }
        for index in indices where !state.verified.contains(index) {
            let range = hashes.range(of: index, total: plan.total)
            guard plan.isWritten(range) else { continue }
            let actual = try digest(of: range, hashes: hashes, state: &state)
            if actual == hashes.hashes[index] {
                state.verified.insert(index)
            } else {
                rejectPiece(index, range: range, actual: actual, state: &state, actions: &actions)
            }
        }
    }

    /// `verifyWrittenPieces(_:)` checks the whole pieces of a resumed plan not known checked
    /// (a piece known checked counts only where its bytes are still recorded); a corrupt one
    /// is fetched again.
    func verifyWrittenPieces(_ state: inout State) throws(FerryError) {
        guard let hashes = pieceHashes, let plan = state.plan, hashes.covers(total: plan.total) else { return }
        state.verified = state.verified.filter { index in
            index < hashes.hashes.count && plan.isWritten(hashes.range(of: index, total: plan.total))
        }
        for index in hashes.hashes.indices where !state.verified.contains(index) {
            let range = hashes.range(of: index, total: plan.total)
            guard state.plan?.isWritten(range) == true else { continue }
            if try digest(of: range, hashes: hashes, state: &state) == hashes.hashes[index] {
                state.verified.insert(index)
            } else {
                state.plan?.reopen(range, avoiding: [])
            }
        }
        state.verifiedRecorded = state.verified
    }

    /// `digest(of:hashes:state:)` is the hex digest of the bytes of `range` on disk (what the
    /// connections gathered written first).
    private func digest(of range: Range<Int64>, hashes: PieceHashes, state: inout State) throws(FerryError) -> String {
        guard let file = state.file else { return "" }
        for entry in state.connections.values { try entry.gathered?.flush(to: file) }
        var hasher = ChecksumHasher(algorithm: hashes.algorithm)
        try file.read(range) { hasher.update($0) }
        return hasher.finalizeHex()
    }

    /// `rejectPiece(_:range:state:actions:)` fetches a corrupt piece again, from another source
    /// while there is one, and demotes the sources its bytes came from (dropped after
    /// ``maximumBadPieces``); the download goes on meanwhile.
    private func rejectPiece(_ index: Int, range: Range<Int64>, actual: String, state: inout State, actions: inout Actions) {
        let writers = state.plan?.writers(of: range) ?? []
        for source in writers where source < state.sources.count {
            state.sources[source].badPieces += 1
            if state.sources[source].badPieces >= Self.maximumBadPieces {
                drop(source, because: "\(state.sources[source].badPieces) pieces failed their hash", state: &state, actions: &actions)
            }
        }
        state.plan?.reopen(range, avoiding: writers)
        state.badPieces += 1
        if let hashes = pieceHashes {
            state.lastError = .integrity(.checksumMismatch(algorithm: "\(hashes.algorithm.rawValue) of piece \(index)", expected: hashes.hashes[index], actual: actual))
        }
        guard state.badPieces <= Self.maximumBadPiecesInAll(of: pieceHashes?.hashes.count ?? 0) else {
            stop(&state, because: state.lastError ?? .cancelled, actions: &actions)
            return
        }
        fill(&state, actions: &actions)
    }

    /// `maximumBadPiecesInAll(of:)` is how many corrupt pieces one run takes before it gives
    /// up: no source serves the file as its hashes say.
    static func maximumBadPiecesInAll(of pieces: Int) -> Int {
        max(8, pieces / 4)
    }

    /// `recordVerified(_:)` hands the checked pieces to `piecesVerified` when they changed;
    /// called once their bytes are synchronized.
    func recordVerified(_ state: inout State) {
        guard pieceHashes != nil, state.verified != state.verifiedRecorded else { return }
        state.verifiedRecorded = state.verified
        piecesVerified(state.verified)
    }
}
