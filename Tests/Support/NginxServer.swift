import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `NginxServer` is a private nginx serving a directory on 127.0.0.1, for real Range,
/// ETag, If-Range and `limit_rate` behaviour.
///
/// Its configuration, pid file, logs and temp paths live in a temporary directory of its
/// own. It runs in the foreground (`daemon off`) under `Tests/Servers/watchdog.py`, which
/// stops it if the test process dies without calling `stop()`. When the tests run as root
/// the workers run as root too (`user`), so trees under 0700 temp directories are readable.
/// `stop()` is idempotent and also runs from `deinit` as a safety net.
public final class NginxServer: Sendable {
    /// `NginxServer.executable` is the nginx binary: `/usr/sbin/nginx`.
    public static let executable = "/usr/sbin/nginx"

    /// `port` is the TCP port on 127.0.0.1.
    public let port: Int
    /// `root` is the served directory.
    public let root: URL
    /// `directory` holds `nginx.conf`, `nginx.pid`, `access.log`, `error.log`.
    public let directory: TemporaryDirectory
    /// `baseURL` is `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let process: ChildProcess
    private let stopping = StopOnce()

    private init(port: Int, root: URL, directory: TemporaryDirectory, process: ChildProcess) {
        self.port = port
        self.root = root
        self.directory = directory
        self.process = process
        baseURL = URL(string: "http://\(Loopback.host):\(port)")!
    }

    deinit {
        stop()
    }

    /// `start(root:limitRate:extraConfig:)` starts nginx serving `root` and returns once
    /// the port accepts connections (at most 10 s).
    ///
    /// - Parameters:
    ///   - limitRate: an nginx `limit_rate` value such as `"200k"`; `nil` (the default)
    ///     for no limit.
    ///   - extraConfig: directives placed inside the `server` block, after the defaults
    ///     (for example `location /x { return 302 /y; }`). Empty by default.
    ///   - httpConfig: directives placed inside the `http` block (for example a
    ///     `limit_conn_zone`). Empty by default.
    public static func start(root: URL, limitRate: String? = nil, extraConfig: String = "", httpConfig: String = "") throws -> NginxServer {
        guard access(executable, X_OK) == 0 else {
            throw TestSupportError("\(executable) is missing: install the nginx package (make deps)")
        }
        let directory = try TemporaryDirectory(prefix: "ferry-nginx")
        var lastFailure = "no attempt"
        for _ in 1...3 {
            let port = try Loopback.freePort()
            let configuration = directory.file("nginx.conf")
            do {
                try makeConfiguration(
                    port: port, root: root, prefix: directory, limitRate: limitRate, extraConfig: extraConfig,
                    httpConfig: httpConfig
                ).write(to: configuration, atomically: true, encoding: .utf8)
            } catch {
                directory.remove()
                throw error
            }
            let process: ChildProcess
            do {
                process = try ChildProcess.spawn(
                    executable: "python3",
                    arguments: [
                        TestSupport.serversDirectory.appendingPathComponent("watchdog.py").path, "--",
                        executable, "-p", directory.path + "/", "-e", directory.file("error.log").path,
                        "-c", configuration.path,
                    ],
                    input: .keepOpen
                )
            } catch {
                directory.remove()
                throw error
            }
            if Loopback.waitUntilAccepting(port: port, timeout: .seconds(10), while: { process.isRunning }) {
                return NginxServer(port: port, root: root, directory: directory, process: process)
            }
            let result = process.terminate(grace: .seconds(2))
            let errorLog = (try? String(contentsOf: directory.file("error.log"), encoding: .utf8)) ?? ""
            lastFailure = "\(result?.termination.description ?? "still running"): \(result?.stderr ?? "") \(errorLog)"
            if !lastFailure.contains("Address already in use") { break }
        }
        directory.remove()
        throw TestSupportError("nginx did not start: \(lastFailure)")
    }

    /// `url(_:)` is `baseURL` followed by `path` (a leading `/` is added when missing). The
    /// path may carry a query; it must already be percent-encoded.
    public func url(_ path: String) -> URL {
        joinURL(baseURL, path)
    }

    /// `accessLog()` is the access log so far, one request a line:
    /// `METHOD URI STATUS BODY_BYTES "RANGE" "IF_RANGE" REQUEST_LENGTH`.
    public func accessLog() -> String {
        (try? String(contentsOf: directory.file("access.log"), encoding: .utf8)) ?? ""
    }

    /// `TimedRequest` is one request of `timedRequests()`: when nginx began reading it
    /// (seconds since 1970, the log time less the request's time), its status and the
    /// `Range` it asked for (empty when none).
    public struct TimedRequest: Sendable {
        public let start: Double
        public let status: Int
        public let range: String
    }

    /// `timedRequests()` are the requests logged so far with their start times. nginx logs a
    /// request when it ends, a cut one when it notices the cut: a run's requests can be
    /// logged after the next run began, and only their start tells them apart.
    public func timedRequests() -> [TimedRequest] {
        let text = (try? String(contentsOf: directory.file("timed.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3)
            guard fields.count == 4, let logged = Double(fields[0]), let took = Double(fields[1]), let status = Int(fields[2]) else { return nil }
            return TimedRequest(start: logged - took, status: status, range: String(fields[3].dropFirst().dropLast()))
        }
    }

    /// `errorLog()` is nginx's error log so far.
    public func errorLog() -> String {
        (try? String(contentsOf: directory.file("error.log"), encoding: .utf8)) ?? ""
    }

    /// `stop()` sends nginx `SIGTERM`, waits up to 5 s, then kills its process group, and
    /// removes its temporary directory. Calling it again does nothing.
    public func stop() {
        guard stopping.claim() else { return }
        process.stopWatched()
        directory.remove()
    }

    static func makeConfiguration(
        port: Int, root: URL, prefix: TemporaryDirectory, limitRate: String?, extraConfig: String, httpConfig: String = ""
    ) -> String {
        func quoted(_ path: String) -> String {
            "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        func inPrefix(_ name: String) -> String { quoted(prefix.file(name).path) }
        var userLine = ""
        if geteuid() == 0, let user = getpwuid(geteuid()), let group = getgrgid(getegid()) {
            userLine = "user \(String(cString: user.pointee.pw_name)) \(String(cString: group.pointee.gr_name));"
        }
        return """
        # Generated by FerryTestSupport.NginxServer for one test; removed when it stops.
        daemon off;
        master_process on;
        worker_processes 1;
        \(userLine)
        pid \(inPrefix("nginx.pid"));
        error_log \(inPrefix("error.log")) warn;
        events { worker_connections 256; }
        http {
            types {
                text/html html;
                text/plain txt;
                application/json json;
                application/octet-stream bin;
            }
            default_type application/octet-stream;
            log_format ferry '$request_method $request_uri $status $body_bytes_sent "$http_range" "$http_if_range" $request_length';
            access_log \(inPrefix("access.log")) ferry;
            log_format ferry_timed '$msec $request_time $status "$http_range"';
            access_log \(inPrefix("timed.log")) ferry_timed;
            client_body_temp_path \(inPrefix("client_body"));
            proxy_temp_path \(inPrefix("proxy"));
            fastcgi_temp_path \(inPrefix("fastcgi"));
            uwsgi_temp_path \(inPrefix("uwsgi"));
            scgi_temp_path \(inPrefix("scgi"));
            sendfile on;
            tcp_nopush on;
            keepalive_timeout 65;
            \(httpConfig)
            server {
                listen \(Loopback.host):\(port);
                server_name localhost;
                root \(quoted(root.path));
                \(limitRate.map { "limit_rate \($0);" } ?? "")
                location / { }
                \(extraConfig)
            }
        }

        """
    }
}

/// Joins a base URL and a path that may carry a query.
func joinURL(_ base: URL, _ path: String) -> URL {
    let text = base.absoluteString + (path.hasPrefix("/") ? path : "/" + path)
    if let url = URL(string: text) { return url }
    let encoded = text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? text
    return URL(string: encoded) ?? base
}
