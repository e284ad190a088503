import ArgumentParser
import FerryQueue

/// `EngineLimits` are the limits of every command that runs transfers (`get`, `resume`, the
/// terminal UI): one description, one check.
struct EngineLimits: ParsableArguments {
    @Option(name: .customLong("max-concurrent"), help: ArgumentHelp("Transfers running at once, in all.", valueName: "N"))
    var maxConcurrent: Int = SchedulerConfiguration.defaultMaximumConcurrent

    @Option(name: .customLong("max-per-host"), help: ArgumentHelp("Transfers running at once to one server (host and port), so a queue of one site's files stays polite.", valueName: "N"))
    var maxPerHost: Int = SchedulerConfiguration.defaultMaximumPerHost

    @OptionGroup var bandwidth: BandwidthOptions

    func validate() throws {
        guard maxConcurrent >= 1, maxPerHost >= 1 else {
            throw ValidationError("--max-concurrent and --max-per-host must be 1 or more")
        }
    }
}
