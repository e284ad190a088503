import Foundation
import Glibc
import Testing
@testable import FerryQueue

@Suite struct EngineLockTests {
    @Test func writesOurPidWithMode0600() throws {
        let temp = try TemporaryDirectory()
        let path = temp.file("engine.lock")

        let lock = try EngineLock.acquire(at: path)

        #expect(lock.isHeld)
        #expect(permissions(path) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "\(getpid())\n")
    }

    @Test func anotherProcessSeesTheLockUntilReleased() throws {
        // Given our lock
        let temp = try TemporaryDirectory()
        let path = temp.file("engine.lock")
        let lock = try EngineLock.acquire(at: path)

        // Then flock(1) in another process cannot take it
        #expect(try run("/usr/bin/flock", ["-n", path, "true"]) == 1)

        // And once released, it can
        lock.release()
        #expect(!lock.isHeld)
        #expect(try run("/usr/bin/flock", ["-n", path, "true"]) == 0)
    }

    @Test func releasingFreesTheLockWhileACopyOfItsDescriptorIsOpen() throws {
        // Given our lock and a copy of its descriptor, as a child process being spawned holds
        // one until its exec
        let temp = try TemporaryDirectory()
        let path = temp.file("engine.lock")
        let lock = try EngineLock.acquire(at: path)
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        let held = try #require(entries.compactMap(Int32.init).first { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == path
        })
        let copy = dup(held)
        try #require(copy >= 0)
        defer { close(copy) }

        // When it is released, then another process can take it at once
        lock.release()
        #expect(try run("/usr/bin/flock", ["-n", path, "true"]) == 0)
    }

    @Test func aLockHeldByAnotherProcessNamesItsPid() throws {
        // Given another process holding the lock, having written its pid
        let temp = try TemporaryDirectory()
        let path = temp.file("engine.lock")
        let holder = Process()
        let output = Pipe()
        let input = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-n", path, "/bin/sh", "-c", "echo $$ > \"$0\"; echo $$; read -r line || true", path]
        holder.standardOutput = output
        holder.standardInput = input
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let announced = try #require(readLine(output.fileHandleForReading))
        let pid = try #require(Int32(announced))

        // When we try to take it
        // Then the error names that process
        let error = #expect(throws: QueueError.self) {
            try EngineLock.acquire(at: path)
        }
        #expect(error == .lock(.heldByAnotherProcess(pid: pid)))
        #expect(error?.description == "another ferry (pid \(pid)) is running this queue")

        // And when that process ends, the lock is free again
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
        let lock = try EngineLock.acquire(at: path)
        #expect(lock.isHeld)
    }

    @Test func aSecondLockInTheSameProcessFails() throws {
        let temp = try TemporaryDirectory()
        let path = temp.file("engine.lock")
        let first = try EngineLock.acquire(at: path)

        #expect(throws: QueueError.lock(.heldByAnotherProcess(pid: getpid()))) {
            try EngineLock.acquire(at: path)
        }
        withExtendedLifetime(first) {}
    }

    /// `readLine(_:)` reads one line from a pipe, waiting for it (EOF ends it early).
    private func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = handle.readData(ofLength: 1)
            guard let byte = data.first else { break }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
