import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FerryTUI

/// `RecordingController` feeds fixed rows to the front end (from a `TaskRowTable`) and
/// appends every command it receives to a log file, one line each; pausing and resuming
/// update the row.
final class RecordingController: TaskController {
    private let logPath: String
    private let inbox = Mutex<EventInbox?>(nil)
    private let table = Mutex(TaskRowTable([
        TaskRow(id: 1, kind: .download, name: "ubuntu.iso", state: .running, bytesDone: 40 << 20, bytesTotal: 100 << 20,
                speed: 1 << 20, eta: 60, urls: ["https://example.com/ubuntu.iso"], destination: "/tmp/ubuntu.iso"),
        TaskRow(id: 2, kind: .download, name: "日本語のファイル名.zip", state: .queued, position: 1, bytesTotal: 5000),
        TaskRow(id: 3, kind: .upload, name: "evil\u{202E}gpj.exe 📷", state: .failed, position: 2, lastError: "HTTP 500"),
    ]))
    private let request = Mutex(TaskViewRequest.first)

    init(logPath: String) { self.logPath = logPath }

    func attach(_ inbox: EventInbox) {
        self.inbox.withLock { $0 = inbox }
        answer()
    }

    func show(_ request: TaskViewRequest) {
        self.request.withLock { $0 = request }
        answer()
    }

    private func answer() {
        let window = table.withLock { $0.window(for: request.withLock { $0 }) }
        inbox.withLock { $0 }?.post(.window(window))
    }

    func perform(_ command: TUICommand) {
        let fd = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        if fd >= 0 {
            let line = "\(command)\n"
            _ = line.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let changed = table.withLock { table -> Bool in
            switch command {
            case .pause(let id), .resume(let id):
                guard var row = table.rows[id] else { return false }
                if case .pause = command { row.state = .paused } else { row.state = .running }
                table.upsert([row])
                return true
            default:
                return false
            }
        }
        if changed { answer() }
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
