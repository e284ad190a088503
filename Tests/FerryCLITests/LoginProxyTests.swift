import FerryTestSupport
import Foundation
import Testing

/// Logins and proxies as curl and wget users give them, against real servers on 127.0.0.1:
/// Basic (nginx), Digest (the fault server), `.netrc`, a password asked for on the terminal,
/// an HTTP proxy (tinyproxy) and a SOCKS5 proxy (microsocks), with and without their logins.
/// A login goes to its own origin only, and no password is ever printed.
@Suite(.serialized) struct LoginProxyTests {
    private static let password = "s3cret-pass-7"

    /// nginx with /private/ behind Basic for alice.
    private func basicServer(_ www: TemporaryDirectory, _ secrets: TemporaryDirectory) throws -> NginxServer {
        try FileManager.default.createDirectory(at: www.file("private"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("private/a.bin"), count: 40_000, seed: 5)
        try Pattern.writeFile(at: www.file("open.bin"), count: 30_000, seed: 6)
        try "alice:{PLAIN}\(Self.password)\n".write(to: secrets.file("htpasswd"), atomically: true, encoding: .utf8)
        return try NginxServer.start(root: www.url, extraConfig: """
            location /private/ { auth_basic "ferry"; auth_basic_user_file \(secrets.file("htpasswd").path); }
            """)
    }

    private func run(_ arguments: [String], state: URL, environment extra: [String: String] = [:]) throws -> ProcessResult {
        let environment = ProcessInfo.processInfo.environment.merging(extra.merging(["FERRY_STATE_DIR": state.path]) { $1 }) { $1 }
        let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments, environment: environment)
        return try #require(child.wait(timeout: .seconds(60)))
    }

    private func expectNoSecret(_ result: ProcessResult, _ secrets: [String]) {
        for secret in secrets {
            #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret), "\(secret) was printed: \(result.stderr)")
        }
    }

    @Test func basicLoginsFromTheCommandLineAndFromNetrc() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let secrets = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); secrets.remove(); out.remove(); state.remove() }
        let nginx = try basicServer(www, secrets)
        defer { nginx.stop() }
        let url = nginx.url("/private/a.bin").absoluteString

        let refused = try run(["get", "--no-netrc", "-d", out.path, "-o", "none.bin", url], state: state.url)
        #expect(refused.exitStatus == 1 && refused.stderr.contains("401"), "\(refused.stderr)")

        let wrong = try run(["get", "-d", out.path, "-o", "wrong.bin", "-u", "alice:nope", url], state: state.url)
        #expect(wrong.exitStatus == 1 && wrong.stderr.contains("401"), "\(wrong.stderr)")
        expectNoSecret(wrong, ["nope"])

        let given = try run(["get", "-d", out.path, "-o", "given.bin", "-u", "alice:\(Self.password)", "--basic", url], state: state.url)
        #expect(given.exitStatus == 0, "\(given.stderr)")
        #expect(try SHA256Hex.of(file: out.file("given.bin")) == Pattern.sha256Hex(count: 40_000, seed: 5))
        expectNoSecret(given, [Self.password])

        try "machine 127.0.0.1 login alice password \(Self.password)\n".write(to: secrets.file("netrc"), atomically: true, encoding: .utf8)
        let netrc = try run(["get", "-d", out.path, "-o", "netrc.bin", "--netrc-file", secrets.file("netrc").path, url], state: state.url)
        #expect(netrc.exitStatus == 0, "\(netrc.stderr)")
        #expect(try SHA256Hex.of(file: out.file("netrc.bin")) == Pattern.sha256Hex(count: 40_000, seed: 5))
    }

    /// The default `.netrc` is `$HOME/.netrc`, as for curl and wget: without one the login is
    /// refused, with one the same command gets the file (the engine looks for it only once a
    /// second, and not at all for `--no-netrc`).
    @Test func theDefaultNetrcIsTheOneInTheHomeDirectory() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let secrets = try TemporaryDirectory(worldReadable: true)
        let home = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); secrets.remove(); home.remove(); out.remove(); state.remove() }
        let nginx = try basicServer(www, secrets)
        defer { nginx.stop() }
        let url = nginx.url("/private/a.bin").absoluteString

        let missing = try run(["get", "-d", out.path, "-o", "missing.bin", url], state: state.url, environment: ["HOME": home.path])
        #expect(missing.exitStatus == 1 && missing.stderr.contains("401"), "\(missing.stderr)")

        try "machine 127.0.0.1 login alice password \(Self.password)\n".write(to: home.file(".netrc"), atomically: true, encoding: .utf8)
        let found = try run(["get", "-d", out.path, "-o", "home.bin", url], state: state.url, environment: ["HOME": home.path])
        #expect(found.exitStatus == 0, "\(found.stderr)")
        #expect(try SHA256Hex.of(file: out.file("home.bin")) == Pattern.sha256Hex(count: 40_000, seed: 5))
        expectNoSecret(found, [Self.password])

        let refused = try run(["get", "--no-netrc", "-d", out.path, "-o", "refused.bin", url], state: state.url, environment: ["HOME": home.path])
        #expect(refused.exitStatus == 1 && refused.stderr.contains("401"), "\(refused.stderr)")
    }

    @Test func digestWithThePasswordFromTheEnvironmentOrAFile() throws {
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        let secrets = try TemporaryDirectory()
        defer { out.remove(); state.remove(); secrets.remove() }
        let url = server.url("/digest/50000", query: ["user": "alice", "pass": Self.password]).absoluteString

        let fromEnvironment = try run(["get", "-d", out.path, "-o", "env.bin", "-u", "alice", "--digest", url], state: state.url,
                                      environment: ["FERRY_PASSWORD": Self.password])
        #expect(fromEnvironment.exitStatus == 0, "\(fromEnvironment.stderr)")
        #expect(try SHA256Hex.of(file: out.file("env.bin")) == Pattern.sha256Hex(count: 50_000))

        try "\(Self.password)\n".write(to: secrets.file("pw"), atomically: true, encoding: .utf8)
        let fromFile = try run(["get", "-d", out.path, "-o", "file.bin", "-u", "alice", "--password-file", secrets.file("pw").path, url],
                               state: state.url)
        #expect(fromFile.exitStatus == 0, "\(fromFile.stderr)")
        expectNoSecret(fromFile, [Self.password])

        let missing = try run(["get", "-d", out.path, "-o", "missing.bin", "-u", "alice", url], state: state.url)
        #expect(missing.exitStatus == 2 && missing.stderr.contains("-u alice has no password"), "\(missing.stderr)")
    }

    @Test func theLoginStaysWithItsOrigin() throws {
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { out.remove(); state.remove() }
        // 127.0.0.1 redirects to localhost: another origin, which must not get the login.
        let elsewhere = "http://localhost:\(server.port)/echo"
        let url = server.url("/redirect/1", query: ["to": elsewhere]).absoluteString

        let result = try run(["get", "-d", out.path, "-o", "echo.json", "-u", "alice:\(Self.password)", "--basic", url], state: state.url)

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let first = try #require(try server.requests(prefix: "/redirect").first)
        #expect(first.headers.contains { $0.name.lowercased() == "authorization" }, "the login went to its own origin")
        let echoed = try String(contentsOf: out.file("echo.json"), encoding: .utf8)
        #expect(echoed.contains("\"/echo\""), "\(echoed)")
        #expect(!echoed.lowercased().contains("authorization"), "the login followed the redirect: \(echoed)")
    }

    @Test func aPasswordIsAskedForOnTheTerminal() throws {
        try #require(TmuxTerminal.isAvailable, "tmux is not installed")
        let www = try TemporaryDirectory(worldReadable: true)
        let secrets = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); secrets.remove(); out.remove(); state.remove() }
        let nginx = try basicServer(www, secrets)
        defer { nginx.stop() }
        let terminal = try TmuxTerminal(command: [try ferryExecutableURL().path, "get", "--state-dir", state.path, "-d", out.path,
                                                  "-u", "alice", "--basic", nginx.url("/private/a.bin").absoluteString],
                                        width: 80, height: 10)

        #expect(terminal.waitUntil(seconds: 20) { terminal.screen().contains { $0.contains("password for alice:") } }, "\(terminal.screen())")
        try terminal.type(Self.password)
        try terminal.send("Enter")

        #expect(terminal.waitUntil(seconds: 30) { terminal.exitLine() != nil })
        #expect(terminal.exitLine()?.hasPrefix("EXIT=0") == true, "\(terminal.screen()) \(terminal.standardError())")
        #expect(!terminal.screen().joined().contains(Self.password), "the password was echoed")
        #expect(try SHA256Hex.of(file: out.file("a.bin")) == Pattern.sha256Hex(count: 40_000, seed: 5))
    }

    @Test(arguments: [ProxyServer.Kind.http, .socks5])
    func aProxyWithALoginCarriesLoopbackRequests(kind: ProxyServer.Kind) throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("p.bin"), count: 60_000, seed: 8)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let login = (user: "proxyuser", password: "pr0xy-pw-3")
        let proxy = try ProxyServer.start(kind, login: login)
        defer { proxy.stop() }
        let url = nginx.url("/p.bin").absoluteString

        let through = try run(["get", "-d", out.path, "-o", "through.bin", "--proxy", proxy.url(login: login), url], state: state.url)

        #expect(through.exitStatus == 0, "\(through.stderr)")
        #expect(try SHA256Hex.of(file: out.file("through.bin")) == Pattern.sha256Hex(count: 60_000, seed: 8))
        let log = proxy.log()
        #expect(log.contains(kind == .http ? "GET \(url)" : "127.0.0.1:\(nginx.port)"), "the request did not go through the proxy: \(log)")
        expectNoSecret(through, [login.password])

        let refused = try run(["get", "-d", out.path, "-o", "refused.bin", "--proxy", proxy.url(login: (login.user, "wrong-pw-5")), url],
                              state: state.url)
        #expect(refused.exitStatus == 1, "\(refused.stderr)")
        // tinyproxy answers a wrong login 401 (no login: 407); microsocks ends the handshake.
        #expect(kind == .http ? refused.stderr.contains(" 401 ") || refused.stderr.contains(" 407 ")
                              : refused.stderr.contains("the proxy refused the request"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("retrying"), "a refusal is not retried: \(refused.stderr)")
        expectNoSecret(refused, ["wrong-pw-5"])
        #expect(!FileManager.default.fileExists(atPath: out.file("refused.bin").path))
    }
}

/// Cookies as curl users keep them: a jar written by one run (mode 0600) and read by the next,
/// its cookies sent only where their domain allows; cookies given as text go to the URL's own origin.
@Suite(.serialized) struct CookieTests {
    @Test func aJarWrittenByOneRunIsSentByTheNextToItsDomainOnly() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        let nginx = try NginxServer.start(root: www.url, extraConfig: """
            location = /login { add_header Set-Cookie "session=abc123; Path=/"; return 200 "welcome\\n"; }
            location /echo/ { default_type text/plain; return 200 "cookie=[$http_cookie]\\n"; }
            """)
        defer { nginx.stop() }
        let jar = out.file("jar.txt").path

        let first = try runFerry(["get", "-d", out.path, "-c", jar, nginx.url("/login").absoluteString], stateDirectory: state.url)
        #expect(first.exitStatus == 0, "\(first.stderr)")
        let saved = try String(contentsOfFile: jar, encoding: .utf8)
        #expect(saved.contains("127.0.0.1") && saved.contains("session\tabc123"), "\(saved)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: jar)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "the jar's mode is \(String(mode, radix: 8))")

        let own = nginx.url("/echo/own").absoluteString
        let other = "http://localhost:\(nginx.port)/echo/other"
        let second = try runFerry(["get", "-d", out.path, "-b", jar, "-b", "lang=en", own, other], stateDirectory: state.url)
        #expect(second.exitStatus == 0, "\(second.stderr)")
        let sentOwn = try String(contentsOf: out.file("own"), encoding: .utf8)
        let sentOther = try String(contentsOf: out.file("other"), encoding: .utf8)
        #expect(sentOwn.contains("session=abc123") && sentOwn.contains("lang=en"), "\(sentOwn)")
        #expect(!sentOther.contains("session=abc123"), "the cookie of 127.0.0.1 went to localhost: \(sentOther)")
        #expect(sentOther.contains("lang=en"), "cookies given as text go to every URL given: \(sentOther)")
        #expect(!second.stderr.contains("abc123"))
    }
}
