import Glibc
import Testing
@testable import FerryQueue

@Suite struct StateDirectoryTests {
    @Test func argumentWinsOverEnvironment() throws {
        let path = try StateDirectory.resolvePath(
            argument: "/a", environment: ["FERRY_STATE_DIR": "/b", "XDG_STATE_HOME": "/c", "HOME": "/d"])
        #expect(path == "/a")
    }

    @Test func ferryStateDirWinsOverXDG() throws {
        let path = try StateDirectory.resolvePath(
            argument: nil, environment: ["FERRY_STATE_DIR": "/b", "XDG_STATE_HOME": "/c", "HOME": "/d"])
        #expect(path == "/b")
    }

    @Test func xdgStateHomeThenHome() throws {
        #expect(try StateDirectory.resolvePath(argument: nil, environment: ["XDG_STATE_HOME": "/c/", "HOME": "/d"])
            == "/c/ferry")
        #expect(try StateDirectory.resolvePath(argument: "", environment: ["FERRY_STATE_DIR": "", "HOME": "/d"])
            == "/d/.local/state/ferry")
    }

    @Test func relativeXDGStateHomeIsIgnored() throws {
        let path = try StateDirectory.resolvePath(argument: nil, environment: ["XDG_STATE_HOME": "rel", "HOME": "/d"])
        #expect(path == "/d/.local/state/ferry")
    }

    @Test func noHomeIsAnError() {
        #expect(throws: QueueError.stateDirectory(.noHomeDirectory)) {
            try StateDirectory.resolvePath(argument: nil, environment: [:])
        }
    }

    @Test func createsMissingDirectoriesWithMode0700() throws {
        // Given a home without .local/state
        let temp = try TemporaryDirectory()
        let home = temp.file("home")

        // When the state directory is prepared
        let directory = try StateDirectory.prepare(argument: nil, environment: ["HOME": home])

        // Then it and the parents it made are owner-only
        #expect(directory.path == "\(home)/.local/state/ferry")
        #expect(permissions(directory.path) == 0o700)
        #expect(permissions("\(home)/.local") == 0o700)
        #expect(directory.journalPath == "\(home)/.local/state/ferry/journal.sqlite")
        #expect(directory.logPath == "\(home)/.local/state/ferry/ferry.log")
        #expect(directory.lockPath == "\(home)/.local/state/ferry/engine.lock")
    }

    @Test func tightensAnExistingDirectory() throws {
        let temp = try TemporaryDirectory()
        let path = temp.file("state")
        #expect(mkdir(path, 0o755) == 0)
        #expect(chmod(path, 0o755) == 0)

        _ = try StateDirectory(creatingAt: path)

        #expect(permissions(path) == 0o700)
    }

    @Test func aFileInTheWayIsAnError() throws {
        let temp = try TemporaryDirectory()
        let path = try temp.write("x", to: "state")
        #expect(throws: QueueError.stateDirectory(.notADirectory(path: path))) {
            try StateDirectory(creatingAt: path)
        }
    }
}
