import Foundation

/// `UploadResumeData` is what an upload needs to go on after its process ended: the
/// protocol, the upload's resource on the server, the body's length, the offset last known
/// to be on the server, and the identity of every file the body reads (the AFNetworking
/// idea of resume data, for uploads).
///
/// It is saved before body bytes go (tus: once the server made the resource; the IETF
/// protocol: the moment the server's `104` names it), and an upload resumes only when the
/// files are the same (``UploadFileIdentity``) and the body is the same length.
public struct UploadResumeData: Sendable, Hashable, Codable {
    /// `Protocol` is how the upload resumes.
    public enum UploadProtocol: String, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The IETF httpbis resumable-upload draft (`104 Upload Resumption Supported`,
        /// `Upload-Offset`, `Upload-Complete`).
        case ietf
        /// tus 1.0 (creation, core, termination).
        case tus

        public var description: String { self == .ietf ? "IETF resumable upload" : "tus" }
    }

    /// `uploadProtocol` is the protocol the server speaks for this upload.
    public var uploadProtocol: UploadProtocol
    /// `interopVersion` is the IETF draft's interop version used (3, 5 or 6); `nil` for tus.
    public var interopVersion: Int?
    /// `location` is the absolute URL of the upload's resource on the server.
    public var location: String
    /// `length` is the whole body's length in bytes.
    public var length: Int64
    /// `offset` is the last offset the server confirmed (0 before it confirmed any).
    public var offset: Int64
    /// `files` are the identities of the files the body reads, in order.
    public var files: [UploadFileIdentity]

    /// `init(uploadProtocol:interopVersion:location:length:offset:files:)` makes resume data.
    public init(uploadProtocol: UploadProtocol, interopVersion: Int?, location: String, length: Int64, offset: Int64, files: [UploadFileIdentity]) {
        self.uploadProtocol = uploadProtocol
        self.interopVersion = interopVersion
        self.location = location
        self.length = length
        self.offset = offset
        self.files = files
    }

    /// `encoded()` is the data as one JSON text.
    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `decoded(_:)` reads ``encoded()``'s text back; `nil` when it is not resume data.
    public static func decoded(_ text: String) -> UploadResumeData? {
        try? JSONDecoder().decode(UploadResumeData.self, from: Data(text.utf8))
    }
}

/// `UploadResumeStore` keeps one upload's ``UploadResumeData`` where a later process finds it.
///
/// `save(_:)` returns once the data is durable (it survives kill -9 of the process). Called
/// from the engine thread and from the upload's own task; implementations are thread-safe.
public protocol UploadResumeStore: Sendable {
    /// The data last saved, `nil` when there is none.
    func load() -> UploadResumeData?
    /// Saves `data` in place of what was there.
    func save(_ data: UploadResumeData) throws(FerryError)
    /// Forgets the data (the upload ended, or it starts over).
    func clear()
}
