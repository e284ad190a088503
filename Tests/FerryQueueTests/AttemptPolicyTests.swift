import FerryKit
@testable import FerryQueue
import Foundation
import Testing

/// `AttemptPolicy` without a server: the retry budget, Retry-After, mirrors, restarts after
/// a change on the server, a full disk, deliberate stops, and what the user's actions reset.
struct AttemptPolicyTests {
    private let id = TaskID(rawValue: 7)
    /// Delays without jitter: 1, 2, 4, ... seconds, at most 60.
    private let retryPolicy = RetryPolicy(retryLimit: 5, baseDelay: 1, maximumDelay: 60, jitter: 0)

    private func spec(mirrors: Int = 1, retries: Int? = nil, upload: UploadSpec? = nil) throws -> TaskSpec {
        let urls = try (0..<mirrors).map { index throws(QueueError) in
            try TransferURL(validating: "http://mirror\(index).example/file.bin")
        }
        return TaskSpec(urls: urls, options: TaskOptions(retries: retries), upload: upload)
    }

    private func status(_ code: Int) -> FerryError {
        .validation(.unacceptableStatus(code, reason: "", url: "http://mirror0.example/file.bin", body: nil))
    }

    private func failed(
        _ policy: inout AttemptPolicy, _ spec: TaskSpec, _ error: FerryError, progress: Bool = false,
        response: HTTPResponse? = nil
    ) -> Decision {
        policy.decide(id, spec: spec, outcome: .failure(error), intent: nil, madeProgress: progress, response: response)
    }

    @Test func onlyAttemptsWithoutProgressSpendTheBudgetAndEveryFailureGrowsTheDelay() throws {
        // Given a task allowed one retry.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(retries: 1)

        // When its attempts fail: one without progress, four that moved the download on.
        var delays: [Double?] = []
        delays.append(failed(&policy, spec, status(503)).retryDelay)
        for _ in 0..<4 {
            let decision = failed(&policy, spec, status(503), progress: true)
            #expect(decision.state == .queued)
            delays.append(decision.retryDelay)
        }

        // Then each was retried, later each time; a second attempt without progress ends it.
        #expect(delays == [1, 2, 4, 8, 16])
        let last = failed(&policy, spec, status(503))
        #expect(last.state == .failed)
        #expect(last.failure == .transfer)
        #expect(last.message?.contains("503") == true)
    }

    @Test func retryAfterIsHonouredUpToTheCap() throws {
        // Given a task and replies asking to come back later.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec()
        let url = try #require(URL(string: "http://mirror0.example/file.bin"))
        func reply(_ value: String) -> HTTPResponse {
            HTTPResponse(url: url, statusCode: 429, headers: ["Retry-After": value])
        }

        // When attempts fail with 429 and a Retry-After of 7 s, then of 500 s, then a bad one.
        let soon = failed(&policy, spec, status(429), response: reply("7"))
        let late = failed(&policy, spec, status(429), response: reply("500"))
        let unreadable = failed(&policy, spec, status(429), response: reply("soon"))

        // Then the server's delay wins, capped at the policy's longest; a bad value is ignored.
        #expect(soon.retryDelay == 7)
        #expect(late.retryDelay == 60)
        #expect(unreadable.retryDelay == 4)
    }

    @Test func aPermanentRemoteFailureMovesTheTaskToTheNextMirror() throws {
        // Given a task with three mirrors and no retries.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(mirrors: 3, retries: 0)

        // When every mirror answers 404.
        let first = failed(&policy, spec, status(404))
        #expect(policy.mirror(of: id) == 1)
        let second = failed(&policy, spec, status(404))
        #expect(policy.mirror(of: id) == 2)
        let last = failed(&policy, spec, status(404))

        // Then it moved on twice, at once, then failed, back at its first mirror.
        #expect(first.state == .queued && second.state == .queued)
        #expect(first.retryDelay == nil)
        #expect(first.message?.hasSuffix("; trying the next mirror") == true)
        #expect(last.state == .failed)
        #expect(policy.mirror(of: id) == 0)
    }

    @Test func aLinkThatExpiresUnderADownloadWithBytesWaitsForANewOne() throws {
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(mirrors: 2, retries: 0)

        // A 403 on the first of two mirrors moves on; on the last, with bytes on disk, it waits.
        let first = policy.decide(id, spec: spec, outcome: .failure(status(403)), intent: nil, madeProgress: false, holdsBytes: true, response: nil)
        #expect(first.state == .queued && policy.mirror(of: id) == 1)
        let last = policy.decide(id, spec: spec, outcome: .failure(status(410)), intent: nil, madeProgress: false, holdsBytes: true, response: nil)
        #expect(last.state == .paused)
        #expect(last.message?.hasPrefix("link expired (server answered 410") == true)
        #expect(last.message?.contains("ferry retarget \(id.rawValue) URL") == true)

        // Without bytes a 403 is a failure as before; an upload's too.
        var fresh = AttemptPolicy(retryPolicy: retryPolicy)
        let one = try self.spec(retries: 0)
        #expect(fresh.decide(id, spec: one, outcome: .failure(status(403)), intent: nil, madeProgress: false, holdsBytes: false, response: nil).state == .failed)
        let upload = try self.spec(retries: 0, upload: UploadSpec(bodyFile: "/f"))
        #expect(fresh.decide(id, spec: upload, outcome: .failure(status(403)), intent: nil, madeProgress: false, holdsBytes: true, response: nil).state == .failed)
    }

    @Test func aLocalFailureDoesNotMoveToAnotherMirror() throws {
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(mirrors: 2, retries: 0)

        let decision = failed(&policy, spec, .file(.permissionDenied("/out/file.bin")))

        #expect(decision.state == .failed)
        #expect(decision.failure == .localFile)
        #expect(policy.mirror(of: id) == 0)
    }

    @Test func aFileChangedOnTheServerStartsOverAtMostThreeTimesSpendingNothing() throws {
        // Given a task allowed one retry.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(retries: 1)
        let changed = FerryError.integrity(.changedOnServer("ETag \"b\", was \"a\""))

        // When the file changes on the server three times.
        for _ in 0..<AttemptBudget.maximumRestarts {
            let decision = failed(&policy, spec, changed)
            // Then each time it starts over at once.
            #expect(decision.state == .queued)
            #expect(decision.retryDelay == nil)
            #expect(decision.message?.contains("changed on the server") == true)
        }

        // And its retry budget is whole: a 503 is retried after the first delay.
        #expect(failed(&policy, spec, status(503)).retryDelay == 1)
        // A fourth change is a failure like any other (not one to retry).
        #expect(failed(&policy, spec, changed).state == .failed)
    }

    @Test func aFullDiskPausesTheTaskWithoutSpendingItsBudget() throws {
        // Given a task allowed no retry.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(mirrors: 2, retries: 0)

        // When writes fail for lack of room: the disk, the quota, the file-size limit.
        let errors: [FerryError] = [
            .file(.diskFull("/out/file.bin.part")),
            .file(.io(path: "/out/file.bin.part", errno: EDQUOT, operation: "write")),
            .file(.io(path: "/out/file.bin.part", errno: EFBIG, operation: "write")),
        ]
        for error in errors {
            let decision = failed(&policy, spec, error)
            // Then the task is paused until there is room, a local failure.
            #expect(decision.state == .paused)
            #expect(decision.failure == .localFile)
            #expect(decision.message?.hasSuffix("; paused until there is room") == true)
        }

        // And it is still on its first mirror with its budget whole.
        #expect(policy.mirror(of: id) == 0)
        #expect(failed(&policy, spec, status(404)).state == .queued)
        #expect(policy.mirror(of: id) == 1)
    }

    @Test func aStopDecidesTheStateAndSpendsNothing() throws {
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(retries: 0)
        let intents: [(StopIntent, TaskState)] = [(.pause, .paused), (.requeue, .queued), (.cancel, .cancelled),
                                                  (.removed, .cancelled)]

        for (intent, state) in intents {
            let decision = policy.decide(id, spec: spec, outcome: .failure(.cancelled), intent: intent,
                                         madeProgress: false, response: nil)
            #expect(decision == Decision(state: state))
        }
        // A transfer cancelled without an intent (the session went away) is queued, silently.
        #expect(failed(&policy, spec, .cancelled) == Decision(state: .queued))
        // Nothing was spent: the first 503 still ends the task, as its zero retries say.
        #expect(failed(&policy, spec, status(503)).state == .failed)
    }

    @Test func successForgetsTheTask() throws {
        // Given a task that moved on to its second mirror.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(mirrors: 2, retries: 0)
        _ = failed(&policy, spec, status(404))
        #expect(policy.mirror(of: id) == 1)
        let url = try #require(URL(string: "http://mirror1.example/file.bin"))
        let result = TransferResult(response: HTTPResponse(url: url, statusCode: 200),
                                    fileURL: URL(fileURLWithPath: "/out/file.bin"), bytesReceived: 42)

        // When an attempt succeeds.
        let decision = policy.decide(id, spec: spec, outcome: .success(result), intent: nil, madeProgress: true,
                                     response: nil)

        // Then the task is done with its file and size, and nothing of it is kept.
        #expect(decision == Decision(state: .done, finalPath: "/out/file.bin", length: 42))
        #expect(policy.mirror(of: id) == 0)
    }

    @Test func anUploadAnsweredWithAnErrorFails() throws {
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(upload: UploadSpec(bodyFile: "/in/body.bin"))
        let url = try #require(URL(string: "http://mirror0.example/file.bin"))
        let result = TransferResult(response: HTTPResponse(url: url, statusCode: 403), bytesSent: 10)

        let decision = policy.decide(id, spec: spec, outcome: .success(result), intent: nil, madeProgress: false,
                                     response: nil)

        #expect(decision.state == .failed)
        #expect(decision.message?.contains("403") == true)
    }

    @Test func resumeGivesAWholeBudgetAndRetryTheFirstMirrorToo() throws {
        // Given a task on its second mirror whose budget is spent there.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)
        let spec = try spec(mirrors: 2, retries: 1)
        _ = failed(&policy, spec, .validation(.unacceptableStatus(404, reason: "", url: "", body: nil)))
        #expect(failed(&policy, spec, status(503)).retryDelay == 1)
        #expect(policy.mirror(of: id) == 1)

        // When the user resumes it: a whole budget, the same mirror (the delays start again).
        policy.forgetRetries(of: id)
        #expect(policy.mirror(of: id) == 1)
        #expect(failed(&policy, spec, status(503)).retryDelay == 1)

        // When the user retries it: from the first mirror.
        policy.startOver(id)
        #expect(policy.mirror(of: id) == 0)
        #expect(failed(&policy, spec, status(503)).retryDelay == 1)
    }
}
