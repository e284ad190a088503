import FerryKit
import FerryQueue
import Foundation

extension GetCommand {
    /// `isRemoteMetalink(_:)` is whether a URL names a Metalink (its path ends in `.meta4` or
    /// `.metalink`, as MirrorBrain and MirrorManager name theirs): `ferry get` follows it
    /// (aria2's `--follow-metalink`) unless `--follow-metalink=false`.
    static func isRemoteMetalink(_ url: URL) -> Bool {
        let path = url.path.lowercased()
        return path.hasSuffix(".meta4") || path.hasSuffix(".metalink")
    }

    /// `followedMetalinkTasks(_:...)` fetches the Metalink at `url` into memory (with this
    /// command's headers, TLS, login, proxy and cookies; at most `Metalink.maximumBytes`) and
    /// makes the downloads of its files, as a local one makes them; `nil` when what the URL
    /// serves is neither said to be a Metalink (`application/metalink4+xml`,
    /// `application/metalink+xml`) nor reads as one: it is then downloaded as any file. A
    /// document said to be a Metalink that cannot be read, or is hostile, is a usage error; a
    /// URL that cannot be fetched, a transfer error.
    func followedMetalinkTasks(_ url: URL, directory: URL, headers: HTTPHeaders, rate: Int64?, connection: ConnectionArguments,
                               trustManager: ServerTrustManager?) async throws -> [NewTask]? {
        var request = Request(url: url)
        request.headers = headers
        request.headers["Accept"] = "application/metalink4+xml, application/metalink+xml;q=0.9, */*;q=0.1"
        connection.apply(to: &request)
        var configuration = SessionConfiguration()
        configuration.trustManager = trustManager
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        let task = session.task(kind: .download, request: request, delegate: ReplyTaskDelegate(keeping: Metalink.maximumBytes + 1))
        task.resume()
        let shown = URLMasking.mask(url)
        let result: TransferResult
        switch await task.outcome() {
        case .success(let value): result = value
        case .failure(let error):
            Console.error("\(shown): \(error.description)")
            throw ExitStatus(code: error.exitStatus)
        }
        let response = result.response
        guard response.isSuccess else {
            Console.error("\(shown): the server answered \(response.statusCode)")
            throw ExitStatus.transferFailed
        }
        let type = response.headers["Content-Type"]?.lowercased() ?? ""
        let saysMetalink = type.contains("application/metalink4+xml") || type.contains("application/metalink+xml")
        let data = result.data ?? Data()
        let metalink: Metalink
        do throws(FerryError) {
            guard result.bytesReceived <= Int64(Metalink.maximumBytes) else {
                throw .serialization(.invalidMetalink("larger than \(Metalink.maximumBytes >> 20) MiB"))
            }
            metalink = try Metalink.parse(data)
        } catch {
            guard saysMetalink else { return nil }
            Console.error("\(shown): \(error.description)")
            throw ExitStatus.usage
        }
        Console.status("following the Metalink \(shown)\n")
        let fields = headers.compactMap { try? HeaderField(name: $0.name, value: $0.value) }
        let template = NewTask(spec: TaskSpec(urls: [], headers: fields, destinationDirectory: directory.path,
                                              options: TaskOptions(maxDownloadLimit: rate, retries: options.retries),
                                              connection: connection.settings))
        do throws(FerryError) {
            let tasks = try MetalinkTasks.tasks(from: metalink, template: template,
                                                locations: MetalinkTasks.locations(options.metalinkLocation),
                                                preferredProtocol: MetalinkTasks.preferredProtocol(options.metalinkPreferredProtocol))
            for task in tasks { try Self.makeFolder(of: task, under: directory) }
            return tasks
        } catch {
            Console.error("\(shown): \(error.description)")
            throw ExitStatus(code: error.exitStatus)
        }
    }
}
