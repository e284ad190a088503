import FerryQueue
import Synchronization

/// `StatusPages` keeps the answer to each page of waiting or stopped tasks a client asked for
/// (`tellWaiting`, `tellStopped`) with the page's marks (`Journal.PageMarks`): asked again,
/// the page is read and written again only when its marks changed.
///
/// A front end asks for the same page of 1,000 tasks every second, and it rarely changes:
/// reading the marks (three columns of each task, in one transaction with the page) cost
/// about a tenth of reading the tasks and writing their status objects. The marks cover all
/// a waiting or stopped task's status is made of: every change but a progress checkpoint
/// moves the journal's revision, and a checkpoint changes only the total and durable
/// lengths; the kind of a task's last failure (its `errorCode`), which the scheduler keeps
/// in memory and sets just after the journal records the attempt, is covered by counting
/// the attempts it ends (its `ended` events come after). Two things are never kept: pages
/// of running tasks (live progress changes all the time) and pages with a finished task
/// whose length is read from its file on disk.
final class StatusPages: Sendable {
    /// `Request` is one page as asked: which tasks, which part of them, which keys.
    struct Request: Hashable {
        let states: Set<TaskState>
        let offset: Int
        let limit: Int
        /// `reversed` lists the page backwards (a negative offset, as aria2 does).
        let reversed: Bool
        let keys: DownloadStatus.Keys
    }

    private struct Page {
        let marks: Journal.PageMarks
        /// `ended` is `endedAttempts` before the page was read.
        let ended: Int
        let answer: JSONValue
    }

    /// `capacity` is how many pages are kept, 8: a front end asks for two or three shapes.
    static let capacity = 8

    private let pages = Mutex<[Request: Page]>([:])
    private let endedAttempts = Atomic<Int>(0)

    /// `follow(_:)` counts the attempts `runner` ends from now on.
    func follow(_ runner: some QueueRunner) {
        runner.observe { [self] event in
            if case .ended = event { attemptEnded() }
        }
    }

    /// `attemptEnded()` counts one attempt ended: no page kept before is answered again.
    func attemptEnded() {
        endedAttempts.add(1, ordering: .sequentiallyConsistent)
    }

    /// `answer(_:engine:)` is the status list of `request`: kept, or read and written now.
    func answer(_ request: Request, engine: RPCEngine) throws(QueueError) -> JSONValue {
        let cacheable = !request.states.contains(.running)
        let ended = endedAttempts.load(ordering: .sequentiallyConsistent)
        let known = cacheable ? pages.withLock { $0[request] }.flatMap { $0.ended == ended ? $0 : nil } : nil
        let (marks, read) = try engine.journal.tasks(
            in: request.states, limit: request.limit, offset: request.offset, unlessMarked: known?.marks)
        if let known, read == nil {
            return known.answer
        }
        let records = request.reversed ? Array((read ?? []).reversed()) : read ?? []
        let answer = DownloadStatus.list(records, engine: engine, keys: request.keys)
        if cacheable, AnswerBudget.current?.exceeded != true, !records.contains(where: DownloadStatus.readsDisk) {
            pages.withLock { pages in
                if pages.count >= StatusPages.capacity, pages[request] == nil {
                    pages.removeAll()
                }
                pages[request] = Page(marks: marks, ended: ended, answer: answer)
            }
        }
        return answer
    }
}
