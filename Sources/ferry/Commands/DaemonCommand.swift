import ArgumentParser
import FerryKit
import FerryQueue
import FerryRPC
import Foundation

/// `DaemonCommand` is `ferry daemon`: the queue's engine without a window, driven through
/// aria2's JSON-RPC on `control.sock` (and TCP with `--rpc-port`), until `ferry stop`,
/// `aria2.shutdown` or SIGTERM/SIGINT.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the queue's engine for clients (aria2 JSON-RPC) until ferry stop.",
        discussion: """
        The daemon holds the queue of its state directory (a second engine is refused) and \
        keeps running when nothing is left to do: tasks added later, through RPC or by \
        `ferry add`, start at once. With --exit-when-idle it stops once nothing is queued or \
        running and no client (a WebSocket, or a terminal UI) is attached. It always listens on control.sock in the state directory \
        (mode 0600); with --rpc-port also on TCP, where every call must carry the secret \
        ("token:SECRET" as its first parameter, as in aria2). `ferry stop`, SIGTERM or Ctrl-C \
        stop it: running transfers are checkpointed and stay queued. See docs/RPC.md.
        """
    )

    @OptionGroup var rpc: RPCOptions

    @Flag(help: "Run in the background (messages go to ferry.log in the state directory).")
    var detach = false

    @Flag(name: .customLong("detached"), help: ArgumentHelp(visibility: .private))
    var detachedChild = false

    @Flag(name: .customLong("exit-when-idle"), help: "Stop once nothing is queued or running and no client (a WebSocket, or a terminal UI) is attached (checked every second, after a grace of a few seconds); for a daemon started for a client.")
    var exitWhenIdle = false

    @Option(name: .customLong("poll-interval"), help: ArgumentHelp("Seconds between reads of the journal's revision (changes made without the daemon).", visibility: .private))
    var pollInterval: Double = 1

    @OptionGroup var limits: EngineLimits

    @OptionGroup var hooks: HookOptions

    @OptionGroup(title: "TLS rules per host") var trustRules: TrustRuleOptions

    @Option(name: [.short, .customLong("dir")], help: "Where downloads without a directory of their own are saved.")
    var dir: String?

    @Option(name: .customLong("save-session"), help: ArgumentHelp("Write the unfinished downloads to FILE in aria2's session format when asked (aria2.saveSession) and when the daemon stops; ferry add -i FILE and aria2c -i FILE read it back.", valueName: "FILE"))
    var saveSession: String?

    @OptionGroup var state: StateOptions

    /// `StopReason` is why the daemon stops.
    enum StopReason: Sendable {
        case signal(Int32)
        case shutdown
        case idle
        case serverFailed(String)
    }

    /// `idleGrace` is how long a daemon started with `--exit-when-idle` stays idle before it
    /// stops: its client has that long to attach after starting it.
    static let idleGrace: Duration = .seconds(3)

    func validate() throws {
        guard pollInterval > 0, pollInterval <= 86_400 else { throw ValidationError("--poll-interval must be between 0 and 86400 seconds") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let trustManager = try trustRules.checkedManager(environment: environment)
        let secret = try rpc.secret(environment: environment)
        if rpc.rpcPort != nil && secret == nil {
            Console.error("--rpc-port needs a secret: --rpc-secret-file FILE, FERRY_RPC_SECRET or --rpc-secret")
            throw ExitStatus.usage
        }
        let stateDirectory = try QueueAccess.directory(state)
        if detach {
            try await DaemonLauncher.launch(stateDirectory: stateDirectory)
            return
        }
        if detachedChild {
            // Started by --detach: leave the terminal's session where possible, and outlive
            // its hangup in any case.
            _ = setsid()
            signal(SIGHUP, SIG_IGN)
        }
        let host: EngineHost
        do {
            host = try EngineHost.acquire(stateDirectory, policy: .moveAside)
        } catch {
            throw QueueAccess.fail(error)
        }
        defer { host.close() }
        let journal = host.journal
        let directory = try DownloadDirectory.prepareForCommand(dir)
        var configuration = SchedulerConfiguration(defaultDirectory: directory.path, maximumConcurrent: limits.maxConcurrent,
                                                   maximumPerHost: limits.maxPerHost, pollInterval: .milliseconds(Int64(pollInterval * 1000)))
        // The environment's authorities, as curl reads them (per-task TLS settings are not stored yet).
        configuration.securityPolicy = SecurityPolicy.default.withEnvironment(environment)
        configuration.trustManager = trustManager
        try limits.bandwidth.record(on: journal)
        let scheduler = await host.start(configuration, hooks: hooks, environment: environment)
        let (stops, stop) = AsyncStream.makeStream(of: StopReason.self)
        let engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory.path,
                               maximumConcurrent: limits.maxConcurrent, onShutdown: { stop.yield(.shutdown) })
        _ = engine.options.notices.observe { Console.error("daemon: \($0)") }
        if let saveSession {
            do {
                try engine.keepSession(at: saveSession.hasPrefix("/") ? saveSession
                                       : FileManager.default.currentDirectoryPath + "/" + saveSession)
            } catch {
                Console.error("--save-session: \(error.message)")
                throw ExitStatus.usage
            }
        }
        let running = await scheduler.startRunning()
        let trap = SignalTrap.install { number in stop.yield(.signal(number)) }
        host.serve(engine, secret: secret, tcp: rpc.tcpEndpoints, allowOriginAll: rpc.rpcAllowOriginAll,
                   allowAnyHost: rpc.rpcListenAll, onListening: { endpoint in
                       Console.error("daemon: listening on \(endpoint)")
                       // Started and answering: what only the start used need not stay resident.
                       if case .unixSocket = endpoint.address { SystemCall.pageOutProgram() }
                   }, onFailure: { endpoint, error in
                       Console.error("daemon: not listening on \(endpoint): \(error)")
                   }, onEnd: { stop.yield(.serverFailed($0)) })
        let watching = exitWhenIdle ? DaemonCommand.watchIdle(engine, grace: DaemonCommand.idleGrace) { stop.yield(.idle) } : nil
        var reason = StopReason.shutdown
        for await next in stops {
            reason = next
            break
        }
        watching?.cancel()
        await host.closeDoor()
        await scheduler.stop()
        await running.value
        do {
            if let path = try engine.writeSession() { Console.error("daemon: unfinished downloads saved to \(path)") }
        } catch {
            Console.error("daemon: \(error.message)")
        }
        trap.cancel()
        switch reason {
        case .signal(let number):
            // The terminal echoed ^C without a line break: the message starts on a line of its own.
            if number == SIGINT && Console.stderrIsTerminal { Console.status("\n") }
            Console.error("daemon stopped; unfinished transfers stay queued")
        case .shutdown:
            Console.error("daemon stopped; unfinished transfers stay queued")
        case .idle:
            Console.error("daemon stopped: nothing left to run and no client attached")
        case .serverFailed(let message):
            Console.error("daemon: \(message)")
            throw ExitStatus.usage
        }
    }

    /// `watchIdle(_:grace:then:)` checks every second whether `engine` is idle (nothing queued
    /// or running, no WebSocket client) and calls `then` once it has been for `grace`.
    static func watchIdle(_ engine: RPCEngine, grace: Duration, then stop: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        Task {
            let clock = ContinuousClock()
            var idleSince: ContinuousClock.Instant?
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard engine.isIdle() else {
                    idleSince = nil
                    continue
                }
                let since = idleSince ?? clock.now
                idleSince = since
                if clock.now - since >= grace {
                    stop()
                    return
                }
            }
        }
    }
}
