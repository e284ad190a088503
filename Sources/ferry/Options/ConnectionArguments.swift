import FerryKit
import FerryQueue
import Foundation

/// `ConnectionArguments` turns a command's trust and login options (`TrustOptions`,
/// `LoginOptions`, `--compressed`) into the `ConnectionSettings` kept with each task it adds,
/// so a queued task runs with them in whichever engine runs it, after a restart too. Every
/// path is made absolute (the engine that runs the task may be a daemon elsewhere in the file
/// system); cookies given as text become a `Cookie` header, bound to the task's own origin.
struct ConnectionArguments {
    var settings = ConnectionSettings()
    /// `cookieHeader` is the `-b 'NAME=VALUE; ...'` cookies, `nil` without them.
    var cookieHeader: String?
    /// The parts a command running the tasks itself gives its scheduler.
    var policy = SecurityPolicy.default
    var login: Login?
    var proxy: ProxySettings?
    var netrc: (uses: Bool, file: String?) = (true, nil)
    var cookieFiles: [String] = []
    var cookieJar: String?

    /// `init()` is no option given.
    init() {}

    /// `init(trust:login:compressed:environment:)` reads the options (the environment's
    /// authorities and password as curl and the help say); throws an input error naming the
    /// option that is wrong.
    init(trust: TrustOptions, login options: LoginOptions, compressed: Bool, environment: [String: String]) throws(FerryError) {
        policy = try trust.policy(environment: environment)
        let cookies = try options.cookieSettings()
        cookieHeader = cookies.header
        cookieFiles = cookies.files.map(TaskOptionTable.absolute)
        cookieJar = cookies.jar.map(TaskOptionTable.absolute)
        login = try options.login(environment: environment)
        proxy = try options.proxySettings()
        netrc = try options.netrc()
        netrc.file = netrc.file.map(TaskOptionTable.absolute)

        policy = Self.absolute(policy)
        // Only what the options give is kept with the tasks: the environment's authorities
        // are those of the engine that runs them (the same `SSL_CERT_FILE` as curl reads).
        if trust.given {
            settings.adopt(Self.absolute(try trust.policy(environment: [:])))
        }
        if let login {
            settings.user = login.user
            settings.password = login.password
            settings.authScheme = login.scheme == .any ? nil : login.scheme
        }
        // Reading ~/.netrc is every engine's default: kept only when the options change it.
        if !netrc.uses || netrc.file != nil {
            settings.usesNetrc = netrc.uses
            settings.netrcFile = netrc.file
        }
        settings.proxy = proxy?.url
        settings.noProxy = proxy.flatMap { $0.noProxy.isEmpty ? nil : $0.noProxy }
        settings.cookieFiles = cookieFiles
        settings.cookieJar = cookieJar
        settings.compressed = compressed
    }

    /// `apply(to:)` gives a request made by this command itself (not a queued task) these
    /// settings: TLS, login, proxy, netrc, cookies and the time limits.
    func apply(to request: inout Request) {
        request.securityPolicy = policy
        request.login = login
        request.proxy = proxy
        request.usesNetrc = netrc.uses
        request.netrcFile = netrc.file
        request.cookieFiles = cookieFiles
        request.cookieJar = cookieJar
        request.connectTimeout = settings.connectTimeout
        request.maximumTime = settings.maximumTime
    }

    /// `absolute(_:)` is `policy` with its files named by absolute paths.
    static func absolute(_ policy: SecurityPolicy) -> SecurityPolicy {
        var absolute = policy
        absolute.certificateAuthorityFile = policy.certificateAuthorityFile.map(TaskOptionTable.absolute)
        absolute.certificateAuthorityDirectory = policy.certificateAuthorityDirectory.map(TaskOptionTable.absolute)
        absolute.clientCertificateFile = policy.clientCertificateFile.map(TaskOptionTable.absolute)
        absolute.clientKeyFile = policy.clientKeyFile.map(TaskOptionTable.absolute)
        return absolute
    }

    /// `warnIfInsecure()` says on stderr that TLS is not checked, when it is not.
    func warnIfInsecure(kept: Bool = false) {
        guard settings.insecure else { return }
        Console.error("warning: --insecure: TLS certificates and host names are not checked\(kept ? " (kept with the queued tasks, shown in the terminal UI)" : "")")
    }
}
