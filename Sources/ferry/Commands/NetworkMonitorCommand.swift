import ArgumentParser
import FerryKit
import Foundation

/// `NetworkMonitorCommand` is the hidden `ferry _netmon`: it runs a `NetworkMonitor` and prints
/// each status it reports as a line (`unknown`, `not reachable`, `reachable via NAME`) until it
/// is interrupted. The reachability tests run it inside network namespaces
/// (`ip netns exec NS ferry _netmon`).
struct NetworkMonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_netmon",
        abstract: "Print each network status change.",
        shouldDisplay: false
    )

    @Option(name: .customLong("settle-ms"), help: "How long a change must hold before it is printed (milliseconds).")
    var settleMilliseconds = 300

    func run() async throws {
        let monitor = NetworkMonitor(configuration: .init(settleDelay: .milliseconds(max(0, settleMilliseconds))))
        if let reason = monitor.unavailableReason {
            Console.output(NetworkStatus.unknown.description)
            Console.error(reason)
            throw ExitStatus.transferFailed
        }
        let statuses = monitor.statuses()  // first: "unknown" is printed before the first dump is read
        monitor.start()
        for await status in statuses {
            Console.output(status.description)
        }
    }
}
