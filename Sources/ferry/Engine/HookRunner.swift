import FerryQueue
import Foundation

/// `HookRunner` runs the `--on-complete` and `--on-error` commands of a scheduler's tasks.
///
/// Each command runs through `/bin/sh -c 'CMD "$@"'`, so CMD may be a program path or a
/// line with arguments of its own; the task's id, `1` (one file) and the path follow, as
/// aria2 passes them. It is started from the scheduler's thread and not waited for (a
/// thread of Foundation's reaps it); its output goes where Ferry's goes, its failure to start
/// is reported once per command line on stderr.
enum HookRunner {
    /// `follow(_:journal:hooks:)` runs `hooks` for `scheduler`'s tasks from now on (its
    /// `journal` tells where a failed one was to be saved); nothing without hooks.
    static func follow(_ scheduler: Scheduler, journal: Journal, hooks: HookOptions) {
        guard hooks.onComplete != nil || hooks.onError != nil else { return }
        let onComplete = hooks.onComplete
        let onError = hooks.onError
        scheduler.observe { event in
            guard case .ended(let id, let state, _, let path) = event else { return }
            switch state {
            case .done:
                if let onComplete { run(onComplete, id: id, path: path ?? "") }
            case .failed:
                guard let onError else { return }
                // The name it was to be saved under, when the journal knows it.
                let record = try? journal.task(id)
                let planned = record.flatMap { record -> String? in
                    guard let directory = record.spec.destinationDirectory, let name = record.fileName ?? record.spec.requestedName else { return nil }
                    return URL(fileURLWithPath: directory).appendingPathComponent(name).path
                }
                run(onError, id: id, path: planned ?? "")
            default:
                break
            }
        }
    }

    /// `run(_:id:path:)` starts one hook.
    static func run(_ command: String, id: TaskID, path: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " \"$@\"", "ferry-hook", id.description, "1", path]
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Console.error("cannot run the hook \(command.displayable): \(error)")
        }
    }
}
