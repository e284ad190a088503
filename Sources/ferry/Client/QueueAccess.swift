import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `StateOptions` is the `--state-dir` option every queue command takes.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "The queue's state directory. Default: $FERRY_STATE_DIR, else $XDG_STATE_HOME/ferry, else ~/.local/state/ferry.")
    var stateDir: String?
}

/// `QueueAccess` opens the state directory and the journal for the queue commands.
enum QueueAccess {
    /// `directory(_:)` resolves and creates the state directory; a failure is reported and
    /// ends the command with status 4.
    static func directory(_ options: StateOptions) throws -> StateDirectory {
        do {
            return try StateDirectory.prepare(argument: options.stateDir, environment: ProcessInfo.processInfo.environment)
        } catch {
            Console.error(error.description)
            throw ExitStatus.localFile
        }
    }

    /// `openJournal(_:)` opens the journal for a command that only changes rows (`add`,
    /// `list`, `pause`...). A journal that opens takes no engine lock: taking it, even for an
    /// instant, would refuse an engine starting at that instant. One that does not open is
    /// opened again under the lock: when no engine runs, an unreadable journal is moved aside
    /// with a message; while one runs, it is left to the engine and reported.
    static func openJournal(_ options: StateOptions) throws -> Journal {
        let state = try directory(options)
        EngineLock.prepare(at: state.lockPath)
        if let opening = try? Journal.open(at: state.journalPath, onCorruption: .fail) {
            if let message = opening.message { Console.error(message) }
            return opening.journal
        }
        let lock = try? EngineLock.acquire(at: state.lockPath)
        defer { lock?.release() }
        return try open(state, policy: lock == nil ? .fail : .moveAside)
    }

    /// `open(_:policy:)` opens the journal of `state`, printing a recovery message.
    static func open(_ state: StateDirectory, policy: Journal.CorruptionPolicy) throws -> Journal {
        do {
            let opening = try Journal.open(at: state.journalPath, onCorruption: policy)
            if let message = opening.message { Console.error(message) }
            return opening.journal
        } catch {
            Console.error(error.description)
            throw ExitStatus.localFile
        }
    }

    /// `parseIDs(_:)` reads task ids as typed (`12` or `#12`); a bad one is a usage error.
    static func parseIDs(_ texts: [String]) throws -> [TaskID] {
        var ids: [TaskID] = []
        for text in texts {
            let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
            guard let value = Int64(digits), value > 0 else {
                Console.error("'\(text)' is not a task id (see ferry list)")
                throw ExitStatus.usage
            }
            ids.append(TaskID(value))
        }
        return ids
    }

    /// `report(_:)` reports a journal error and ends the command (status 4).
    static func fail(_ error: QueueError) -> ExitStatus {
        Console.error(error.description)
        if case .lock(.heldByAnotherProcess) = error { return .usage }
        return .localFile
    }
}
