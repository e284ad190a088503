import FerryTestSupport
import Foundation
import Testing

/// Fault catalogue 41: a state directory on a full or read-only file system gives a clear
/// error and exit status 4 from every command, never a silent hang. Real file systems (a
/// 1 MiB tmpfs, which needs root to mount), not injected errors.
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
struct StateDirectoryFaultTests {
    /// `StateMount` is a 1 MiB tmpfs mounted on a fresh directory, unmounted by `remove()`.
    private struct StateMount {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
            let mount = try run(executable: "/bin/mount", arguments: ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", directory.url.path])
            if mount.exitStatus != 0 {
                directory.remove()
                throw StateMountError(detail: mount.stderr)
            }
        }

        var path: String { directory.url.path }

        /// `fill()` writes a file until the file system has no room left.
        func fill() throws {
            let fd = open(directory.file("filler").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(fd >= 0)
            defer { close(fd) }
            let block = [UInt8](repeating: 0x5A, count: 4096)
            var written = 0
            while written < 2 << 20 {
                let count = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                written += count
            }
            #expect(errno == ENOSPC, "the filler stopped before the file system was full")
        }

        func remount(_ options: String) throws {
            let remount = try run(executable: "/bin/mount", arguments: ["-o", "remount,\(options)", path])
            try #require(remount.exitStatus == 0, "remount: \(remount.stderr)")
        }

        func remove() {
            _ = try? run(executable: "/bin/umount", arguments: [path])
            directory.remove()
        }
    }

    private struct StateMountError: Error {
        let detail: String
    }

    private func ferry(_ arguments: [String], state: StateMount, timeout: Duration = .seconds(60)) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.path], timeout: timeout)
    }

    @Test func resumeOnAFullStateDirectorySaysSoAndExits4() throws {
        // Given 60 small files queued in a journal on a 1 MiB file system, and that file
        // system then filled up (the downloads themselves go elsewhere).
        let count = 60
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try StateMount()
        defer { state.remove(); www.remove(); out.remove() }
        for index in 0..<count {
            try Pattern.writeFile(at: www.file("f\(index).bin"), count: 2048 + index, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let urls = (0..<count).map { nginx.url("/f\($0).bin").absoluteString }
        let add = try ferry(["add", "-d", out.url.path] + urls, state: state)
        try #require(add.exitStatus == 0, "\(add.stderr)")
        try state.fill()

        // When the queue runs.
        let resume = try ferry(["resume"], state: state)

        // Then it does not hang: it says the journal cannot be written and exits 4.
        #expect(!resume.timedOut, "ferry resume hung: \(resume.stderr)")
        #expect(resume.exitStatus == 4, "\(resume.termination): \(resume.stderr)")
        #expect(resume.stderr.contains("cannot write journal"), "\(resume.stderr)")
        #expect(resume.stderr.contains("disk full"), "\(resume.stderr)")

        // When there is room again, the same queue finishes byte-exact with nothing left over.
        unlink(state.directory.file("filler").path)
        let again = try ferry(["resume"], state: state)
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(directoryListing(out.url) == (0..<count).map { "f\($0).bin" }.sorted())
        for index in 0..<count {
            #expect(try SHA256Hex.of(file: out.file("f\(index).bin")) == Pattern.sha256Hex(count: 2048 + index, seed: index))
        }
    }

    @Test func everyQueueCommandOnAReadOnlyStateDirectoryExits4() throws {
        // Given a journal with a paused task, on a file system then made read-only.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try StateMount()
        defer { state.remove(); www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("a.bin"), count: 4096, seed: 1)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let url = nginx.url("/a.bin").absoluteString
        let add = try ferry(["add", "--paused", "-d", out.url.path, url], state: state)
        try #require(add.exitStatus == 0, "\(add.stderr)")
        try state.remount("ro")

        // When each command that uses the state directory runs.
        let commands: [[String]] = [
            ["get", "-d", out.url.path, url],
            ["add", "-d", out.url.path, url],
            ["list"],
            ["list", "--json"],
            ["resume"],
            ["resume", "1"],
            ["pause", "1"],
            ["retry", "1"],
            ["remove", "1"],
        ]
        for command in commands {
            let result = try ferry(command, state: state)

            // Then each one says why and exits 4.
            #expect(result.exitStatus == 4, "ferry \(command.joined(separator: " ")): \(result.termination): \(result.stderr)")
            #expect(result.stderr.lowercased().contains("read-only"), "ferry \(command.joined(separator: " ")): \(result.stderr)")
        }
        #expect(directoryListing(out.url).isEmpty)
    }
}
