import Testing
@testable import FerryQueue

@Suite struct TaskStateTests {
    @Test func terminalStatesGoNowhere() {
        for next in TaskState.allCases {
            #expect(!TaskState.done.canTransition(to: next))
            #expect(!TaskState.cancelled.canTransition(to: next))
        }
        #expect(TaskState.done.isTerminal && TaskState.cancelled.isTerminal)
        #expect(!TaskState.failed.isTerminal)
    }

    @Test func theTable() {
        let allowed: Set<String> = [
            "queued>running", "queued>paused", "queued>cancelled",
            "running>queued", "running>paused", "running>done", "running>failed", "running>cancelled",
            "paused>queued", "paused>cancelled",
            "failed>queued", "failed>cancelled",
        ]
        for from in TaskState.allCases {
            for to in TaskState.allCases {
                #expect(from.canTransition(to: to) == allowed.contains("\(from)>\(to)"), "\(from) -> \(to)")
            }
        }
    }
}
