/// `SessionConfiguration` holds the defaults every transfer of a ``SessionManager`` starts from.
public struct SessionConfiguration: Sendable {
    /// Whether redirects are followed, `true` by default.
    public var followsRedirects = true
    /// The most redirects followed before failing, `10` by default.
    public var maximumRedirects = 10
    /// Seconds allowed to connect, `30` by default. There is no total timeout: large transfers take long.
    public var connectTimeout: Double = 30
    /// A transfer slower than ``lowSpeedLimit`` bytes per second for this many seconds is
    /// stalled (and retried), `60` by default.
    public var lowSpeedTime = SessionConfiguration.defaultLowSpeedTime
    /// The speed in bytes per second under which a transfer counts as stalled, `1024` by
    /// default: a server feeding a few bytes a second does not hold a transfer for hours. A
    /// speed cap Ferry imposes keeps it lower (throttling is never a stall).
    public var lowSpeedLimit = SessionConfiguration.defaultLowSpeedLimit
    /// `1024` bytes per second.
    public static let defaultLowSpeedLimit = 1024
    /// `60` seconds.
    public static let defaultLowSpeedTime = 60
    /// libcurl's receive buffer in bytes, `512 KiB` by default (libcurl's own default is 16 KiB).
    public var receiveBufferSize = 512 * 1024
    /// libcurl's upload buffer in bytes, `512 KiB` by default.
    public var uploadBufferSize = 512 * 1024
    /// The User-Agent sent when a request sets none, `ferry/VERSION` by default.
    public var userAgent = FerryVersion.userAgent
    /// Headers added to every request unless the request sets them, empty by default.
    public var defaultHeaders: HTTPHeaders = [:]
    /// TLS verification and pinning, ``SecurityPolicy/default`` by default.
    public var securityPolicy = SecurityPolicy.default
    /// Per-host trust rules (``ServerTrustManager``): a host with a rule is evaluated by it, on
    /// the first connection and after every redirect; other hosts by the request's own policy,
    /// else ``securityPolicy``. `nil` (no rules) by default.
    public var trustManager: ServerTrustManager?
    /// A receive speed cap in bytes per second for each transfer, `nil` (no cap) by default.
    public var maximumReceiveSpeed: Int64?
    /// Bodies at least this large are sent with `Expect: 100-continue`, so that an early
    /// rejection (401, 413) costs no upload; smaller ones skip the wait. `1 MiB` by default.
    public var expectContinueThreshold: Int64 = 1024 * 1024
    /// The most transfers the session runs at once; transfers resumed beyond it wait in the
    /// engine, in the order they were resumed, and start as others end (their `onStart`
    /// handlers run then). `nil` (no limit) by default; a running session's limits change
    /// with `SessionManager.setLimits(maximumActiveTransfers:maximumActiveTransfersPerHost:)`.
    public var maximumActiveTransfers: Int?
    /// The most transfers the session runs at once to one host (``HostKey``), waiting as for
    /// ``maximumActiveTransfers``. `nil` (no limit) by default.
    public var maximumActiveTransfersPerHost: Int?
    /// When set, every request head sent and every response head received (redirects and
    /// retries included) is passed to it as text, secrets masked (``HeadTrace``): `-v`.
    /// Called on the engine thread. `nil` by default.
    public var headTrace: (@Sendable (HeadTrace) -> Void)?
    /// Speed budgets shared by all the session's transfers, none by default; a running
    /// session's change with `SessionManager.setOverallLimits(_:)`.
    public var overallLimits = OverallLimits()
    /// The clock used for speed and ETA, the system's monotonic clock by default.
    public var clock: any MonotonicClock = SystemClock()

    public init() {}

    /// The defaults described on each property.
    public static var `default`: SessionConfiguration { SessionConfiguration() }
}
