import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// `DownloadDestination.recoverCommittedFile()`: a `.part` already linked to its final name
/// (the process was killed between `link` and `unlink` of the commit) is recognised by its
/// identity, so the download is not fetched again as `NAME.1`.
struct CommittedFileRecoveryTests {
    @Test func aPartLinkedToANumberedNameIsTheCommittedFile() throws {
        // Given f.bin (another file) and a .part that a commit linked to f.1.bin.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("other".utf8).write(to: directory.file("f.bin"))
        try Data("downloaded".utf8).write(to: directory.file("f.bin.part"))
        #expect(link(directory.file("f.bin.part").path, directory.file("f.1.bin").path) == 0)
        let destination = DownloadDestination(directory: directory.url, fileName: "f.bin")

        // When the commit is recovered.
        let file = destination.recoverCommittedFile()

        // Then f.1.bin is the download, the .part is gone and f.bin is untouched.
        #expect(file?.lastPathComponent == "f.1.bin")
        #expect(directoryListing(directory.url) == ["f.1.bin", "f.bin"])
        #expect(try Data(contentsOf: directory.file("f.bin")) == Data("other".utf8))
        #expect(try Data(contentsOf: directory.file("f.1.bin")) == Data("downloaded".utf8))
    }

    @Test func aPartLinkedToAServerSuppliedNameIsFoundInTheDirectory() throws {
        // Given a .part linked to a name from Content-Disposition, not one the commit numbers.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("downloaded".utf8).write(to: directory.file("f.bin.part"))
        #expect(link(directory.file("f.bin.part").path, directory.file("report.pdf").path) == 0)
        let destination = DownloadDestination(directory: directory.url, fileName: "f.bin")

        // When / Then the committed file is found and the .part removed.
        #expect(destination.recoverCommittedFile()?.lastPathComponent == "report.pdf")
        #expect(directoryListing(directory.url) == ["report.pdf"])
    }

    @Test func anUnfinishedPartOrAnEqualCopyIsNotACommit() throws {
        // Given a .part with one link, and f.bin with the same bytes (a copy, another inode).
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("same".utf8).write(to: directory.file("f.bin.part"))
        try Data("same".utf8).write(to: directory.file("f.bin"))
        let destination = DownloadDestination(directory: directory.url, fileName: "f.bin")

        // When / Then nothing is recovered and both files stay.
        #expect(destination.recoverCommittedFile() == nil)
        #expect(directoryListing(directory.url) == ["f.bin", "f.bin.part"])
    }

    @Test func aSymlinkToThePartIsNotACommit() throws {
        // Given a .part with a second link elsewhere, and f.bin a symlink to the .part.
        let directory = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        defer { directory.remove(); elsewhere.remove() }
        try Data("bytes".utf8).write(to: directory.file("f.bin.part"))
        #expect(link(directory.file("f.bin.part").path, elsewhere.file("x").path) == 0)
        #expect(symlink(directory.file("f.bin.part").path, directory.file("f.bin").path) == 0)
        let destination = DownloadDestination(directory: directory.url, fileName: "f.bin")

        // When / Then the symlink is not followed and the .part stays.
        #expect(destination.recoverCommittedFile() == nil)
        #expect(directoryListing(directory.url) == ["f.bin", "f.bin.part"])
    }

    @Test func noPartNothingToRecover() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("done".utf8).write(to: directory.file("f.bin"))
        #expect(DownloadDestination(directory: directory.url, fileName: "f.bin").recoverCommittedFile() == nil)
        #expect(directoryListing(directory.url) == ["f.bin"])
    }
}
