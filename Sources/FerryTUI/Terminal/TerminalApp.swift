#if canImport(Glibc)
import Glibc
#endif

/// `TerminalApp` runs the front end on the calling thread until the user quits.
///
/// The loop sleeps in `poll()` on standard input and the inbox's wake-up descriptor, with
/// no timeout while nothing is pending. When it wakes it reads every pending key, takes every
/// posted event, applies them to the state in one batch, hands the resulting commands to
/// the `TaskController`, and draws one frame if at least `FramePacer.frameInterval` passed
/// since the last (a resize draws at once). A one-second tick runs only while a task runs.
/// The terminal is restored when `run()` returns or throws.
public final class TerminalApp {
    /// `inbox` receives task rows and messages from any thread.
    public let inbox: EventInbox
    private let controller: any TaskController
    private let environment: TUIEnvironment
    private let keys: KeyMaps

    /// `init(controller:environment:keys:)` prepares the front end; nothing is drawn yet.
    public init(controller: any TaskController, environment: TUIEnvironment = TUIEnvironment(), keys: KeyMaps = .standard) throws(TerminalError) {
        self.inbox = try EventInbox()
        self.controller = controller
        self.environment = environment
        self.keys = keys
    }

    /// `run()` takes over the terminal, runs until quit (the `q` key, SIGINT/SIGTERM/SIGHUP,
    /// `EventInbox.close()` or end of input) and restores the terminal.
    public func run() throws(TerminalError) {
        let terminal = try NCursesTerminal(wakeDescriptor: inbox.signalDescriptor)
        defer { terminal.end() }
        var state = TUIState(size: terminal.size, environment: environment, keys: keys)
        controller.attach(inbox)
        let clock = ContinuousClock()
        let start = clock.now
        var pacer = FramePacer()
        var needsDraw = true
        var fullRedraw = true
        var drawNow = true
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let before = clock.now - start
            pacer.schedule(now: before, wantsTick: state.wantsTick)
            let timeout = drawNow ? 0 : pacer.pollTimeout(now: before, needsDraw: needsDraw)
            for index in descriptors.indices { descriptors[index].revents = 0 }
            if poll(&descriptors, nfds_t(descriptors.count), timeout) < 0, errno != EINTR {
                throw .system("poll", errno)
            }
            let inputClosed = descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            var events = terminal.readEvents()
            events += inbox.takeAll()
            let now = clock.now - start
            if pacer.takeTick(now: now) { events.append(.tick) }
            if !events.isEmpty {
                needsDraw = true
                if events.contains(where: { if case .resize = $0 { true } else { false } }) { drawNow = true }
                for effect in state.apply(events) {
                    switch effect {
                    case .perform(let command): controller.perform(command)
                    case .show(let request): controller.show(request)
                    case .redrawAll:
                        fullRedraw = true
                        drawNow = true
                    case .quit: break
                    case .bell: terminal.ringBell()
                    }
                }
            }
            if state.isFinished { return }
            if terminal.wasInterrupted || inputClosed {
                controller.perform(.quit)
                return
            }
            if needsDraw, drawNow || pacer.canDraw(now: now) {
                terminal.draw(Renderer.render(state), full: fullRedraw)
                pacer.didDraw(now: now)
                needsDraw = false
                fullRedraw = false
                drawNow = false
            }
        }
    }
}
