import Dispatch
import Foundation

/// `SignalTrap` runs a handler on SIGINT or SIGTERM instead of dying mid-write.
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]

    private init(sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }

    /// Installs `handler` for SIGINT and SIGTERM; it receives the signal number.
    static func install(_ handler: @escaping @Sendable (Int32) -> Void) -> SignalTrap {
        let queue = DispatchQueue(label: "ferry.signals")
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
        return SignalTrap(sources: sources)
    }

    /// Stops trapping and restores the default behaviour.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
