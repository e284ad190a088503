import Foundation
import Synchronization

extension RequestBody {
    /// A body read once, as it is written, from the FIFO at `path`, opened now (without
    /// blocking: a FIFO that is opened and closed again would make its writer fail). Sent
    /// chunked; a second attempt (a replay) fails with ``UploadReason/cannotRewind``.
    public static func pipe(path: String) throws(FerryError) -> RequestBody {
        let source = PipeSource(descriptor: try PipeBodyStream.open(path: path), name: path, owned: true)
        return .stream { () throws(FerryError) in try source.take() }
    }

    /// A body read once from standard input, sent chunked (see ``pipe(path:)``).
    public static var standardInput: RequestBody {
        let source = PipeSource(descriptor: STDIN_FILENO, name: "standard input", owned: false)
        return .stream { () throws(FerryError) in try source.take() }
    }
}

/// `PipeSource` hands an open descriptor to one ``PipeBodyStream``; it closes a descriptor it
/// owns that no stream took.
final class PipeSource: Sendable {
    private let descriptor: Mutex<Int32?>
    private let name: String
    private let owned: Bool

    init(descriptor: Int32, name: String, owned: Bool) {
        self.descriptor = Mutex(descriptor)
        self.name = name
        self.owned = owned
    }

    deinit {
        if owned, let fd = descriptor.withLock({ $0 }) { close(fd) }
    }

    /// The stream over the descriptor; only the first call has one.
    func take() throws(FerryError) -> PipeBodyStream {
        guard let fd = descriptor.withLock({ $0.take() }) else { throw .upload(.cannotRewind) }
        return PipeBodyStream(descriptor: fd, name: name, owned: owned)
    }
}
