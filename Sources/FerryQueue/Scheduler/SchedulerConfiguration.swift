import FerryKit

/// `SchedulerConfiguration` holds the limits and defaults a `Scheduler` runs the queue with.
public struct SchedulerConfiguration: Sendable {
    /// `defaultMaximumConcurrent` is the global limit of transfers at once, `5`.
    public static let defaultMaximumConcurrent = 5
    /// `defaultMaximumPerHost` is the limit of transfers at once to one host and port, `4`.
    public static let defaultMaximumPerHost = 4

    /// `maximumConcurrent` caps the transfers running at once; `5` by default.
    public var maximumConcurrent: Int
    /// `maximumPerHost` caps the transfers running at once to one host and port; `4` by default.
    public var maximumPerHost: Int
    /// `retryPolicy` decides retries and their delays; a task's own `retries` replaces its
    /// limit. FerryKit's `RetryPolicy()` by default.
    public var retryPolicy: RetryPolicy
    /// `defaultDirectory` is where a download without its own directory is saved.
    public var defaultDirectory: String
    /// `onlyTasks` are the only tasks this scheduler runs (the tasks of one `ferry get`); `nil`
    /// by default (the whole queue). A run until idle ends when none of them is left to run.
    public var onlyTasks: Set<TaskID>?
    /// `lowSpeedLimit` ends an attempt that moves fewer bytes per second than this for
    /// `lowSpeedTime` seconds (a stall, retried); `nil` keeps FerryKit's default.
    public var lowSpeedLimit: Int?
    /// `lowSpeedTime` is the seconds of `lowSpeedLimit`; `nil` keeps FerryKit's default.
    public var lowSpeedTime: Int?
    /// `securityPolicy` is how the TLS peers of this scheduler's transfers are evaluated; `nil`
    /// (the session's, FerryKit's default) by default.
    public var securityPolicy: SecurityPolicy?
    /// `trustManager` holds per-host TLS rules: a host with a rule is checked by it, on the
    /// first connection and after every redirect, whatever a task's own trust settings say;
    /// `nil` (no rules) by default.
    public var trustManager: ServerTrustManager?
    /// `login` is sent to the origin of each task's URL (the tasks of one `ferry get -u`);
    /// `nil` by default.
    public var login: Login?
    /// `usesNetrc` reads `.netrc` (`netrcFile`, else `~/.netrc`) for hosts without a login, as
    /// wget does, unless a task says otherwise (`--no-netrc`, `no-netrc=true`); `true` by default.
    /// A task's own settings (`TaskSpec.connection`) replace these where they set them.
    public var usesNetrc = true
    public var netrcFile: String?
    /// `proxy` carries every transfer; `nil` (the environment's) by default.
    public var proxy: ProxySettings?
    /// `cookieFiles` are read into the engine's cookie store and `cookieJar` written from it
    /// (`ferry get -b FILE -c FILE`); none by default.
    public var cookieFiles: [String] = []
    public var cookieJar: String?
    /// `acceptsCompression` asks for compressed bodies, saved decoded (`--compressed`); `false` by default.
    public var acceptsCompression = false
    /// `headTrace` receives every request and response head of this scheduler's transfers
    /// (`-v`), on the engine thread; `nil` (none) by default.
    public var headTrace: (@Sendable (HeadTrace) -> Void)?
    /// `pollInterval` is how often the journal's revision is read to notice changes made by
    /// other processes; `1` second by default.
    public var pollInterval: Duration
    /// `runDownloadLimit` and `runUploadLimit` are this run's budgets (`ferry get --overall-limit`):
    /// they replace the journal's kept ones while this scheduler runs and are never recorded.
    /// `nil` (the kept budget applies) by default; `.some(nil)` runs without a budget.
    public var runDownloadLimit: Int64?? = nil
    public var runUploadLimit: Int64?? = nil

    /// `overallLimits(kept:)` are the budgets this scheduler applies: this run's where given,
    /// the kept ones otherwise.
    public func overallLimits(kept: OverallLimits) -> OverallLimits {
        OverallLimits(download: runDownloadLimit ?? kept.download, upload: runUploadLimit ?? kept.upload)
    }

    /// `applyConnection(to:task:)` gives `request` this configuration's trust, login, `.netrc`,
    /// proxy, cookie and compression settings, then the task's own where it sets them (kept
    /// with the task, so it runs with them in whichever engine). A task's trust without
    /// authorities of its own keeps the configuration's (the environment's, as curl reads them).
    func applyConnection(to request: inout Request, task: ConnectionSettings) {
        request.securityPolicy = securityPolicy
        request.login = login
        request.usesNetrc = usesNetrc
        request.netrcFile = netrcFile
        request.proxy = proxy
        request.cookieFiles = cookieFiles
        request.cookieJar = cookieJar
        request.acceptsCompression = acceptsCompression
        task.apply(to: &request)
        if task.setsTrust, let base = securityPolicy, var policy = request.securityPolicy,
           policy.certificateAuthorityFile == nil, policy.certificateAuthorityDirectory == nil {
            policy.certificateAuthorityFile = base.certificateAuthorityFile
            policy.certificateAuthorityDirectory = base.certificateAuthorityDirectory
            request.securityPolicy = policy
        }
    }

    /// `init(...)` makes a configuration; only `defaultDirectory` is required.
    public init(
        defaultDirectory: String,
        maximumConcurrent: Int = defaultMaximumConcurrent,
        maximumPerHost: Int = defaultMaximumPerHost,
        retryPolicy: RetryPolicy = RetryPolicy(),
        pollInterval: Duration = .seconds(1)
    ) {
        self.defaultDirectory = defaultDirectory
        self.maximumConcurrent = max(1, maximumConcurrent)
        self.maximumPerHost = max(1, maximumPerHost)
        self.retryPolicy = retryPolicy
        self.pollInterval = pollInterval
    }
}
