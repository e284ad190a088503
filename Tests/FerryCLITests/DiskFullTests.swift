import FerryTestSupport
import Foundation
import Testing

/// Catalogue 12 on the `ferry get` path: a real full file system (a 1 MiB tmpfs, which needs
/// root to mount), not an injected error.
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
struct DiskFullTests {
    @Test func aFullDiskStopsWithStatus4KeepsThePartAndTheSameCommandResumesLater() throws {
        // Given a 3 MiB file and a download directory on a 1 MiB file system.
        let www = try TemporaryDirectory(worldReadable: true)
        let small = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); small.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 3 << 20, seed: 7)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let mount = try run(executable: "/bin/mount", arguments: ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", small.url.path])
        try #require(mount.exitStatus == 0, "mount: \(mount.stderr)")
        defer { _ = try? run(executable: "/bin/umount", arguments: [small.url.path]) }
        let command = ["get", "-d", small.url.path, nginx.url("/f.bin").absoluteString]

        // When the disk fills up.
        let full = try runFerry(command, stateDirectory: state.url)

        // Then the run says so, exits 4 and keeps what it wrote.
        #expect(full.exitStatus == 4, "\(full.stderr)")
        #expect(full.stderr.contains("disk full"))
        let part = small.file("f.bin.part")
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int)
        #expect(kept > 0)
        #expect(!FileManager.default.fileExists(atPath: small.file("f.bin").path))

        // When there is room again and the same command runs.
        let grow = try run(executable: "/bin/mount", arguments: ["-o", "remount,size=8m", small.url.path])
        try #require(grow.exitStatus == 0, "remount: \(grow.stderr)")
        let again = try runFerry(command, stateDirectory: state.url)

        // Then it resumes with a range and ends byte-exact.
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(again.stderr.contains("resuming"))
        #expect(try SHA256Hex.of(file: small.file("f.bin")) == Pattern.sha256Hex(count: 3 << 20, seed: 7))
        let lines: [[Substring]] = nginx.accessLog().split(separator: "\n").map { $0.split(separator: " ") }
        let statuses: [String] = lines.filter { $0.count > 2 && $0[1] == "/f.bin" }.map { String($0[2]) }
        #expect(statuses.last == "206")
    }

    @Test func smallFilesThatNoLongerFitFailAsDiskFullAndNoneIsSavedCut() throws {
        // Given 30 files of 48 KiB (small files keep their bytes in memory until they are
        // made durable) and a download directory on a 1 MiB file system.
        let www = try TemporaryDirectory(worldReadable: true)
        let small = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); small.remove(); state.remove() }
        for index in 0..<30 { try Pattern.writeFile(at: www.file("s\(index).bin"), count: 48 << 10, seed: index) }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let mount = try run(executable: "/bin/mount", arguments: ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", small.url.path])
        try #require(mount.exitStatus == 0, "mount: \(mount.stderr)")
        defer { _ = try? run(executable: "/bin/umount", arguments: [small.url.path]) }
        let command = ["get", "-d", small.url.path] + (0..<30).map { nginx.url("/s\($0).bin").absoluteString }

        // When the disk fills up.
        let full = try runFerry(command, stateDirectory: state.url)

        // Then the run says so and exits 4, and every file saved is whole (a `.part` kept for
        // a resume may be there too).
        #expect(full.exitStatus == 4, "\(full.stderr)")
        #expect(full.stderr.contains("disk full"))
        let saved = try FileManager.default.contentsOfDirectory(atPath: small.url.path).filter { $0.hasSuffix(".bin") }
        #expect(saved.count < 30)
        for name in saved {
            let index = try #require(Int(name.dropFirst().dropLast(4)), "unexpected file \(name)")
            #expect(try SHA256Hex.of(file: small.file(name)) == Pattern.sha256Hex(count: 48 << 10, seed: index))
        }

        // When there is room again and the same command runs.
        let grow = try run(executable: "/bin/mount", arguments: ["-o", "remount,size=8m", small.url.path])
        try #require(grow.exitStatus == 0, "remount: \(grow.stderr)")
        let again = try runFerry(command, stateDirectory: state.url)

        // Then all 30 are there, byte-exact, under their own names.
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: small.url.path).sorted()
                == (0..<30).map { "s\($0).bin" }.sorted())
        for index in 0..<30 {
            #expect(try SHA256Hex.of(file: small.file("s\(index).bin")) == Pattern.sha256Hex(count: 48 << 10, seed: index))
        }
    }
}
