import Glibc
import Testing
@testable import FerryQueue

/// A state directory another user owns, or holding another user's journal, is refused: that
/// user could replace `control.sock` and read what the CLI sends (issue 47).
@Suite struct StateDirectoryOwnerTests {
    private static let nobody: uid_t = 65534

    @Test func aDirectoryOwnedByAnotherUserIsRefused() throws {
        // Given a directory made first by another user (as in /tmp), with its mode open.
        let temp = try TemporaryDirectory()
        let path = temp.file("shared-state")
        #expect(mkdir(path, 0o777) == 0)
        #expect(chown(path, Self.nobody, Self.nobody) == 0)

        // When it is prepared as the state directory, then it is refused, naming it.
        #expect(throws: QueueError.stateDirectory(.notOwned(path: path, owner: Self.nobody))) {
            try StateDirectory(creatingAt: path)
        }
    }

    @Test func aJournalOwnedByAnotherUserIsRefused() throws {
        // Given our own directory holding another user's journal.
        let temp = try TemporaryDirectory()
        let path = temp.file("state")
        _ = try StateDirectory(creatingAt: path)
        let journal = path + "/journal.sqlite"
        let fd = open(journal, O_CREAT | O_WRONLY, 0o600)
        #expect(fd >= 0)
        close(fd)
        #expect(chown(journal, Self.nobody, Self.nobody) == 0)

        // Then the directory is refused, naming the journal.
        #expect(throws: QueueError.stateDirectory(.notOwned(path: journal, owner: Self.nobody))) {
            try StateDirectory(creatingAt: path)
        }
    }

    @Test func aDirectoryOfOursUnderTheStickyTmpIsAccepted() throws {
        // Given a fresh directory of ours under the system's temporary directory.
        let temp = try TemporaryDirectory()

        // Then it is accepted and made owner-only.
        let directory = try StateDirectory(creatingAt: temp.file("mine/ferry"))
        var status = stat()
        #expect(stat(directory.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
    }
}
