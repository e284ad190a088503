import ArgumentParser
import FerryKit
import Foundation

/// `LoginOptions` are the logins and proxy of the transfers a command runs, as curl and wget
/// take them: `-u USER[:PASSWORD]` (a password not given is read from `--password-file`,
/// `$FERRY_PASSWORD`, or asked for on the terminal), `.netrc` for hosts without a login,
/// `--proxy` and `--noproxy`. A login is sent only to the origins of the URLs given, never after
/// a redirect to another one; neither it nor a proxy's password is ever printed.
struct LoginOptions: ParsableArguments {
    /// The environment variable a password is read from when `-u` gives none.
    static let passwordVariable = "FERRY_PASSWORD"

    @Option(name: [.customShort("u"), .customLong("user")], help: ArgumentHelp("Log in as USER; without :PASSWORD it comes from --password-file, $FERRY_PASSWORD, or is asked for on the terminal.", valueName: "USER[:PASSWORD]"))
    var user: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("Read the password of -u from the first line of FILE.", valueName: "FILE"))
    var passwordFile: String?

    @Flag(name: .customLong("basic"), help: "Send the login with Basic at once (by default it is sent, Basic or Digest, after the server asks for it).")
    var basic = false

    @Flag(name: .customLong("digest"), help: "Send the login with Digest only.")
    var digest = false

    @Option(name: .customLong("netrc-file"), help: ArgumentHelp("Read logins from FILE instead of ~/.netrc.", valueName: "FILE"))
    var netrcFile: String?

    @Flag(name: .customLong("no-netrc"), help: "Do not read logins from .netrc (by default it gives the login of hosts that have none, as wget does).")
    var noNetrc = false

    @Option(name: [.customShort("b"), .customLong("cookie")], help: ArgumentHelp("Send cookies: 'NAME=VALUE; ...' (to the URLs' own origins only), or a cookie FILE (Netscape format, as curl and browsers export it; each cookie goes where its domain and path allow). Repeatable.", valueName: "DATA|FILE"))
    var cookies: [String] = []

    @Option(name: [.customShort("c"), .customLong("cookie-jar")], help: ArgumentHelp("Write every cookie (those of -b files and those the servers set) to FILE when the downloads end (Netscape format, mode 0600).", valueName: "FILE"))
    var cookieJar: String?

    @Option(name: .customLong("proxy"), help: ArgumentHelp("Go through this proxy: http, https, socks5, socks5h (names resolved by the proxy) or socks4a, with USER:PASSWORD@ if it needs a login. It carries loopback requests too, as curl's does; without it the environment's proxy (http_proxy, https_proxy, all_proxy) is used, except for loopback hosts.", valueName: "URL"))
    var proxy: String?

    @Option(name: .customLong("noproxy"), help: ArgumentHelp("Hosts reached without the proxy, comma-separated (* for all).", valueName: "LIST"))
    var noProxy: String?

    /// `given` is true when a login, cookies or a proxy were asked for (`.netrc` aside).
    var given: Bool { user != nil || proxy != nil || !cookies.isEmpty || cookieJar != nil }

    /// `cookieSettings()` splits `-b` into the cookies given as text (one `Cookie` header, a
    /// secret bound to each URL's origin) and cookie files (checked readable); `-c`'s jar is
    /// made (mode 0600) if missing, so that libcurl keeps that mode when it writes it.
    func cookieSettings() throws(FerryError) -> (header: String?, files: [String], jar: String?) {
        var pairs: [String] = []
        var files: [String] = []
        for value in cookies {
            if value.contains("=") {
                pairs.append(value.trimmingCharacters(in: CharacterSet(charactersIn: " ;")))
            } else {
                guard access(value, R_OK) == 0 else {
                    throw .input(.invalidOption("-b \(value.displayable): \(String(cString: strerror(errno))) (cookies as text are NAME=VALUE)"))
                }
                files.append(value)
            }
        }
        if let cookieJar {
            let descriptor = SystemCall.open(cookieJar, O_WRONLY | O_CREAT, 0o600)
            guard descriptor >= 0 else {
                throw .input(.invalidOption("-c \(cookieJar.displayable): \(String(cString: strerror(errno)))"))
            }
            close(descriptor)
        }
        return (pairs.isEmpty ? nil : pairs.joined(separator: "; "), files, cookieJar)
    }

    /// `login(environment:)` is the login of `-u`, its password found as the option's help
    /// says; `nil` without `-u`. Throws an input error naming what is missing or wrong.
    func login(environment: [String: String]) throws(FerryError) -> Login? {
        if basic && digest { throw .input(.invalidOption("--basic and --digest exclude each other")) }
        guard let user else {
            if passwordFile != nil { throw .input(.invalidOption("--password-file is the password of -u: give -u USER too")) }
            return nil
        }
        let scheme: Login.Scheme = basic ? .basic : (digest ? .digest : .any)
        if let colon = user.firstIndex(of: ":") {
            let name = String(user[..<colon])
            guard !name.isEmpty else { throw .input(.invalidOption("-u: the user name is empty")) }
            if passwordFile != nil { throw .input(.invalidOption("-u gives a password already: drop --password-file or the :PASSWORD")) }
            return Login(user: name, password: String(user[user.index(after: colon)...]), scheme: scheme)
        }
        guard !user.isEmpty else { throw .input(.invalidOption("-u: the user name is empty")) }
        if let passwordFile {
            return Login(user: user, password: try Self.firstLine(of: passwordFile), scheme: scheme)
        }
        if let password = environment[Self.passwordVariable] {
            return Login(user: user, password: password, scheme: scheme)
        }
        guard isatty(STDIN_FILENO) == 1, let typed = getpass("password for \(user.displayable): ") else {
            throw .input(.invalidOption("-u \(user.displayable) has no password: give -u USER:PASSWORD, --password-file FILE or $\(Self.passwordVariable) (no terminal to ask on)"))
        }
        return Login(user: user, password: String(cString: typed), scheme: scheme)
    }

    /// `proxySettings()` is the proxy of `--proxy`, checked; `nil` without it (the environment's).
    func proxySettings() throws(FerryError) -> ProxySettings? {
        guard let proxy else {
            if noProxy != nil { throw .input(.invalidOption("--noproxy lists hosts that skip --proxy: give --proxy URL too")) }
            return nil
        }
        let shown = URLMasking.mask(proxy).displayable
        guard let components = URLComponents(string: proxy), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else {
            throw .input(.invalidOption("--proxy \(shown): not a URL (e.g. http://proxy:3128 or socks5h://127.0.0.1:1080)"))
        }
        guard ProxySettings.schemes.contains(scheme) else {
            throw .input(.invalidOption("--proxy \(shown): the scheme \(scheme.displayable) is not one of http, https, socks5, socks5h, socks4a"))
        }
        return ProxySettings(url: proxy, noProxy: noProxy ?? "")
    }

    /// `netrc` is whether `.netrc` is read and from which file (`nil`: `~/.netrc`); a file
    /// given that cannot be read is an input error.
    func netrc() throws(FerryError) -> (uses: Bool, file: String?) {
        if noNetrc {
            if netrcFile != nil { throw .input(.invalidOption("--netrc-file and --no-netrc exclude each other")) }
            return (false, nil)
        }
        if let netrcFile, access(netrcFile, R_OK) != 0 {
            throw .input(.invalidOption("--netrc-file \(netrcFile.displayable): \(String(cString: strerror(errno)))"))
        }
        return (true, netrcFile)
    }

    /// The first line of the password file, without its line break.
    private static func firstLine(of path: String) throws(FerryError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .input(.invalidOption("--password-file \(path.displayable): cannot be read (\(String(cString: strerror(errno))))"))
        }
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
