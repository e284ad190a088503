import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FerryTUI

/// `RecordingController` feeds fixed rows to the front end and appends every command it
/// receives to a log file, one line each; pausing and resuming update the row.
final class RecordingController: TaskController {
    private let logPath: String
    private let inbox = Mutex<EventInbox?>(nil)
    private let rows = Mutex<[TaskRow]>([
        TaskRow(id: 1, kind: .download, name: "ubuntu.iso", state: .running, bytesDone: 40 << 20, bytesTotal: 100 << 20,
                speed: 1 << 20, eta: 60, urls: ["https://example.com/ubuntu.iso"], destination: "/tmp/ubuntu.iso"),
        TaskRow(id: 2, kind: .download, name: "日本語のファイル名.zip", state: .queued, position: 1, bytesTotal: 5000),
        TaskRow(id: 3, kind: .upload, name: "evil\u{202E}gpj.exe 📷", state: .failed, position: 2, lastError: "HTTP 500"),
    ])

    init(logPath: String) { self.logPath = logPath }

    func attach(_ inbox: EventInbox) {
        self.inbox.withLock { $0 = inbox }
        inbox.replaceTasks(rows.withLock { $0 })
    }

    func perform(_ command: TUICommand) {
        let fd = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        if fd >= 0 {
            let line = "\(command)\n"
            _ = line.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let changed = rows.withLock { rows -> [TaskRow] in
            switch command {
            case .pause(let id), .resume(let id):
                guard let index = rows.firstIndex(where: { $0.id == id }) else { return [] }
                if case .pause = command { rows[index].state = .paused } else { rows[index].state = .running }
                return [rows[index]]
            default:
                return []
            }
        }
        inbox.withLock { $0 }?.updateTasks(changed)
    }
}

/// `fixtureApp()` runs the real terminal front end with a `RecordingController`. It is
/// started inside tmux by `TerminalTmuxTests` and does nothing in an ordinary test run.
@Test(.enabled(if: getenv("FERRY_TUI_FIXTURE_LOG") != nil))
func fixtureApp() throws {
    let log = getenv("FERRY_TUI_FIXTURE_LOG").map { String(cString: $0) } ?? "/dev/null"
    let app = try TerminalApp(controller: RecordingController(logPath: log), environment: TUIEnvironment(defaultDirectory: "/downloads"))
    try app.run()
}
