import Foundation

/// `DownloadDestination` is where a download goes: a directory, a file name, and whether an
/// existing file may be replaced (AFNetworking's destination block, made safe).
public struct DownloadDestination: Sendable, Equatable {
    /// The directory the file is written in.
    public var directory: URL {
        didSet { directoryPath = DownloadDestination.path(of: directory) }
    }
    /// `directory`'s path without a trailing slash, kept so the paths below need no URL work
    /// (the queue computes them for every file it starts).
    public private(set) var directoryPath: String
    /// The file name inside ``directory``, already safe (see ``SafeFileName``).
    public var fileName: String
    /// Whether an existing file of that name is replaced; `false` by default, when the new
    /// file gets the next free name (`name.1.ext`, `name.2.ext`, ...).
    public var overwrite: Bool

    public init(directory: URL, fileName: String, overwrite: Bool = false) {
        self.directory = directory
        self.directoryPath = DownloadDestination.path(of: directory)
        self.fileName = fileName
        self.overwrite = overwrite
    }

    /// The file as it is wanted.
    public var fileURL: URL { directory.appendingPathComponent(fileName, isDirectory: false) }

    /// The partial file written while the download runs: `NAME.part` next to the destination.
    public var partialFileURL: URL { directory.appendingPathComponent(fileName + ".part", isDirectory: false) }

    /// ``partialFileURL``'s path.
    public var partialFilePath: String { filePath(named: fileName + ".part") }

    /// The path of the file called `name` in ``directory``.
    public func filePath(named name: String) -> String {
        directoryPath + "/" + name
    }

    /// The paths a commit tries in order when it may not replace a file: ``fileName``, then
    /// `name.1.ext`, `name.2.ext`, ... (at most 10,000 numbers).
    var commitPaths: some Sequence<String> {
        (0...10_000).lazy.map { counter in
            filePath(named: counter == 0 ? fileName : SafeFileName.numbered(fileName, counter))
        }
    }

    private static func path(of directory: URL) -> String {
        var path = directory.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path == "/" ? "" : path
    }
}
