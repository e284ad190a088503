import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FerryTUI

@Suite struct EventInboxTests {
    private func isReadable(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test func postingMakesTheWakeDescriptorReadableUntilTaken() throws {
        let inbox = try EventInbox()
        #expect(!isReadable(inbox.wakeDescriptor))
        inbox.post(.tick)
        inbox.show(StatusMessage("hi"))
        #expect(isReadable(inbox.wakeDescriptor))
        #expect(inbox.takeAll() == [.tick, .message(StatusMessage("hi"))])
        #expect(!isReadable(inbox.wakeDescriptor))
        #expect(inbox.takeAll().isEmpty)
    }

    @Test func postsFromManyThreadsAllArriveInPerThreadOrder() async throws {
        let inbox = try EventInbox()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        inbox.updateTasks([Fixtures.row(Int64(thread * 1000 + index), "t")])
                    }
                }
            }
        }
        #expect(isReadable(inbox.wakeDescriptor))
        let ids = inbox.takeAll().compactMap { event -> Int64? in
            if case .updateTasks(let rows) = event { rows.first?.id } else { nil }
        }
        #expect(ids.count == 4_000)
        for thread in 0..<8 {
            let mine = ids.filter { $0 / 1000 == Int64(thread) }
            #expect(mine == mine.sorted())
        }
    }

    @Test func aWakeUpAfterTakingIsNotLost() throws {
        let inbox = try EventInbox()
        inbox.post(.tick)
        _ = inbox.takeAll()
        inbox.close()
        #expect(isReadable(inbox.wakeDescriptor))
        #expect(inbox.takeAll() == [.close])
    }
}
