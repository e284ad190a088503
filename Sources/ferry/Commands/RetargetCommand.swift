import ArgumentParser
import FerryKit
import FerryQueue
import FerryRPC

/// `RetargetCommand` is `ferry retarget ID URL [URL...]`: give a download a new link (an
/// expired signed link, a moved file) and keep its bytes when the new source proves it serves
/// the same file.
struct RetargetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retarget",
        abstract: "Give a download a new URL, keeping its bytes when the new source serves the same file.",
        discussion: """
        The next attempt resumes from the new URL with If-Range: the bytes on disk are kept \
        only when the new source answers with the same representation (the same strong ETag, \
        or the same Last-Modified, and the same length); otherwise the download starts over. \
        More URLs are mirrors of the first. A paused or failed task (a link that expired waits \
        paused) is queued again; a running one must be paused first.
        """
    )

    @Argument(help: "The download to retarget.")
    var id: Int64

    @Argument(help: "Its new URL, then mirrors.")
    var urls: [String]

    @OptionGroup var state: StateOptions

    func run() async throws {
        let task = TaskID(id)
        guard id > 0 else { throw noSuchTask() }
        let client = try QueueClient.open(state)
        defer { client.close() }
        let params: [JSONValue] = [.string(GID.string(for: task)), .array(urls.map { .string($0) })]
        switch try await client.attempt("ferry.retarget", params) {
        case .failure(let error) where error == RPCError.notFound(task):
            throw noSuchTask()
        case .failure(let error):
            throw DaemonClient.fail(error)
        case .success(let result):
            guard let members = result.objectValue, let state = members["state"]?.stringValue else {
                Console.error("the answer to ferry.retarget is not understood")
                throw ExitStatus.transferFailed
            }
            if members["retargeted"] == .bool(true) {
                Console.error("#\(id) now downloads from \(URLMasking.mask(urls[0])) (\(state)); its bytes are kept if that source serves the same file")
            } else {
                Console.error("#\(id) is \(state): only a download that is not running or done can be retargeted (pause it first)")
                throw ExitStatus.usage
            }
        }
    }

    private func noSuchTask() -> ExitStatus {
        Console.error("#\(id): no such task")
        return ExitStatus.usage
    }
}
