/// `AdmissionLimits` are a session's limits on transfers running at once, which its engine
/// holds the others back by (see `SessionConfiguration.maximumActiveTransfers`). `nil` is
/// no limit.
struct AdmissionLimits: Sendable, Equatable {
    /// `maximumActiveTransfers` caps the transfers running at once.
    var maximumActiveTransfers: Int?
    /// `maximumActiveTransfersPerHost` caps the transfers running at once to one host (`HostKey`).
    var maximumActiveTransfersPerHost: Int?

    /// `isLimiting` is true when either limit is set.
    var isLimiting: Bool { maximumActiveTransfers != nil || maximumActiveTransfersPerHost != nil }
}
