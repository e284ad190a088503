import FerryKit

/// `SchedulerEventHub` fans `SchedulerEvent`s out to every subscriber's `AsyncStream`.
typealias SchedulerEventHub = EventHub<SchedulerEvent>
