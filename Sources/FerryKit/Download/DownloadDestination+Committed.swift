import Foundation

extension DownloadDestination {
    /// `recoverCommittedFile()` finishes a commit that a killed process left half done, and
    /// returns the committed file; `nil` when there is nothing to recover.
    ///
    /// `PartialFile.commit(to:)` links the `.part` to its final name and only then unlinks
    /// the `.part`. A process killed between the two leaves a `.part` with two links; its
    /// other name is the finished, synchronized, checked file. Found by identity (`st_dev`
    /// and `st_ino`, symlinks never followed): first among the names a commit tries
    /// (`name`, `name.1.ext`, ...), then in the whole directory (a server-supplied name).
    /// When found, the `.part` is removed, so the download is not fetched again as a copy.
    /// A `.part` with one link is an unfinished download: `nil`, and it is left alone.
    ///
    /// With an `owner`, only its own `.part` counts (`PartOwnership`): a `.part` another
    /// process made, or a hard link a user planted, is never taken for a committed download.
    package func recoverCommittedFile(owner: CommitMark? = nil) -> URL? {
        let partPath = partialFilePath(for: owner)
        var part = stat()
        guard lstat(partPath, &part) == 0, part.st_mode & S_IFMT == S_IFREG, part.st_nlink > 1 else { return nil }

        for candidate in commitPaths {
            var status = stat()
            guard lstat(candidate, &status) == 0 else { break }
            if Self.isSameFile(status, part) {
                return Self.finish(removing: partPath, keeping: URL(fileURLWithPath: candidate, isDirectory: false))
            }
        }
        guard let stream = opendir(directory.path) else { return nil }
        defer { closedir(stream) }
        let partName = (partPath as NSString).lastPathComponent
        while let entry = readdir(stream) {
            guard entry.pointee.d_ino == part.st_ino else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != partName, name != ".", name != ".." else { continue }
            let candidate = directory.appendingPathComponent(name, isDirectory: false)
            var status = stat()
            if lstat(candidate.path, &status) == 0, Self.isSameFile(status, part) {
                return Self.finish(removing: partPath, keeping: candidate)
            }
        }
        return nil
    }

    /// `recoverMarkedFile(_:)` returns the file a download written without a `.part` (see
    /// `CommitMark`) committed before a kill: the first of the names a commit tries (`name`,
    /// `name.1.ext`, ...) that is a regular file carrying `mark` (symlinks never followed);
    /// `nil` when there is none (the download did not reach its name).
    package func recoverMarkedFile(_ mark: CommitMark) -> URL? {
        for candidate in commitPaths {
            var status = stat()
            guard lstat(candidate, &status) == 0 else { return nil }
            guard status.st_mode & S_IFMT == S_IFREG else { continue }
            if CommitMark.value(at: candidate) == mark.value {
                return URL(fileURLWithPath: candidate, isDirectory: false)
            }
        }
        return nil
    }

    /// `removeLeftoverPartialFile(of:)` removes the `.part` a killed process left behind after
    /// the download was recorded done: a name still linked to `finishedFile` (same device and
    /// inode) and nothing else; returns whether it did. Any other `.part` is left alone.
    /// With an `owner`, its `.part` is also looked for where `partialFilePath(for:)` finds it
    /// (another's `.part` at the name made it take the next one).
    @discardableResult
    package func removeLeftoverPartialFile(of finishedFile: String, owner: CommitMark? = nil) -> Bool {
        var file = stat()
        guard lstat(finishedFile, &file) == 0 else { return false }
        let candidates = owner == nil ? [partialFilePath] : [partialFilePath, partialFilePath(for: owner)]
        for partPath in Set(candidates) {
            var part = stat()
            if lstat(partPath, &part) == 0, part.st_mode & S_IFMT == S_IFREG, part.st_nlink > 1, Self.isSameFile(file, part) {
                return unlink(partPath) == 0
            }
        }
        return false
    }

    private static func isSameFile(_ lhs: stat, _ rhs: stat) -> Bool {
        lhs.st_dev == rhs.st_dev && lhs.st_ino == rhs.st_ino && lhs.st_mode & S_IFMT == S_IFREG
    }

    private static func finish(removing partPath: String, keeping file: URL) -> URL {
        unlink(partPath)
        return file
    }
}
