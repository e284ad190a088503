/// `DownloadRequest` is what the add-download dialog asks the application to enqueue.
public struct DownloadRequest: Sendable, Hashable {
    /// `url` is an http or https URL, already validated and trimmed.
    public var url: String
    /// `directory` is the target directory, with a leading `~/` expanded when the home is known.
    public var directory: String
    /// `name` is the file name to save as; `nil` lets the application choose.
    public var name: String?
    /// `checksum` is the expected digest as lower-case `algo=hex`; `nil` when not given.
    public var checksum: String?
    /// `connections` is how many connections the download may use (1-16); `nil` by default
    /// (the queue's default, one).
    public var connections: Int?
    /// `speedLimit` is the download's own speed cap in bytes per second; `nil` (none) by default.
    public var speedLimit: Int64?

    /// `init(url:directory:name:checksum:connections:speedLimit:)` makes a request; the name,
    /// checksum, connections and speed cap are `nil` by default.
    public init(url: String, directory: String, name: String? = nil, checksum: String? = nil, connections: Int? = nil,
                speedLimit: Int64? = nil) {
        self.url = url
        self.directory = directory
        self.name = name
        self.checksum = checksum
        self.connections = connections
        self.speedLimit = speedLimit
    }
}
