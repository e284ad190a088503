import Foundation

/// `DownloadDestination` is where a download goes: a directory, a file name, and whether an
/// existing file may be replaced (AFNetworking's destination block, made safe).
public struct DownloadDestination: Sendable, Equatable {
    /// The directory the file is written in.
    public var directory: URL
    /// The file name inside ``directory``, already safe (see ``SafeFileName``).
    public var fileName: String
    /// Whether an existing file of that name is replaced; `false` by default, when the new
    /// file gets the next free name (`name.1.ext`, `name.2.ext`, ...).
    public var overwrite: Bool

    public init(directory: URL, fileName: String, overwrite: Bool = false) {
        self.directory = directory
        self.fileName = fileName
        self.overwrite = overwrite
    }

    /// The file as it is wanted.
    public var fileURL: URL { directory.appendingPathComponent(fileName, isDirectory: false) }

    /// The partial file written while the download runs: `NAME.part` next to the destination.
    public var partialFileURL: URL { directory.appendingPathComponent(fileName + ".part", isDirectory: false) }
}
