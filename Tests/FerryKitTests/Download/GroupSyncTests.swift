import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// `GroupSync` on real files: a group commit with `syncfs`, a single file with `fdatasync`,
/// and an error that stays with its own file.
@Suite struct GroupSyncTests {
    private func file(_ directory: TemporaryDirectory, _ name: String, bytes: Int) throws -> PartialFile {
        let file = try PartialFile.create(at: directory.file(name + ".part"))
        try Data(repeating: 7, count: bytes).withUnsafeBytes { try file.write($0) }
        return file
    }

    @Test func severalFilesAreMadeDurableTogether() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let files = try (0..<8).map { try file(out, "f\($0)", bytes: 16_384) }
        let errors = GroupSync.synchronize(files)
        #expect(errors.count == 8)
        #expect(errors.allSatisfy { $0 == nil })
        // The files still commit to their names afterwards, with every byte.
        for (index, file) in files.enumerated() {
            let url = try file.commit(to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
            #expect(try Data(contentsOf: url).count == 16_384)
        }
    }

    @Test func oneFileIsSynchronizedOnItsOwn() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let single = try file(out, "one", bytes: 1)
        #expect(GroupSync.synchronize([single]) == [nil])
        #expect(GroupSync.synchronize([]).isEmpty)
    }

    @Test func aFailingFileGetsItsOwnErrorAndTheOthersNone() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let good = try file(out, "good", bytes: 100)
        let closed = try file(out, "closed", bytes: 100)
        let other = try file(out, "other", bytes: 100)
        closed.close()  // its descriptor is gone: fstat and fdatasync fail with EBADF
        let errors = GroupSync.synchronize([good, closed, other])
        #expect(errors[0] == nil)
        #expect(errors[1] != nil)
        #expect(errors[2] == nil)
    }
}
