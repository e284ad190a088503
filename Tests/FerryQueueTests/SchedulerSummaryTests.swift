import FerryKit
import Testing
@testable import FerryQueue

/// `SchedulerSummary.note(_:)`: the one ranking of failures (a local file error over a
/// checksum mismatch over any other), which the command line turns into its exit status.
@Suite struct SchedulerSummaryTests {
    @Test func theGravestFailureWins() {
        var summary = SchedulerSummary()
        #expect(summary.worstFailure == nil)
        summary.note(.transfer)
        #expect(summary.worstFailure == .transfer)
        summary.note(.checksum)
        summary.note(.transfer)
        #expect(summary.worstFailure == .checksum)
        summary.note(.localFile)
        summary.note(.checksum)
        #expect(summary.worstFailure == .localFile)
    }

    @Test func aTasksBadInputCountsAsAFailedTransfer() {
        var summary = SchedulerSummary()
        summary.note(.input)
        #expect(summary.worstFailure == .transfer)
    }

    @Test func errorsHaveTheirKinds() {
        #expect(FerryError.file(.diskFull("/x")).kind == .localFile)
        #expect(FerryError.integrity(.checksumMismatch(algorithm: "sha-256", expected: "a", actual: "b")).kind == .checksum)
        #expect(FerryError.input(.invalidOption("x")).kind == .input)
        #expect(FerryError.transport(.stalled(seconds: 1)).kind == .transfer)
    }
}
