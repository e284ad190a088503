import FerryKit
import FerryQueue
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `SavedFileCheck` tells whether a finished download's file is still the one Ferry wrote,
/// so that a rerun may say "already saved": a regular file at the final path, of the length
/// the journal recorded, with the modification time and inode recorded when Ferry named it
/// (journals from before that record: not modified after the task finished), and matching
/// this command's checksum when one is given (hashed from the file on disk, never taken from
/// the journal).
enum SavedFileCheck {
    /// Modification times this much after the recorded finish still count as Ferry's own
    /// (the journal keeps milliseconds, rounded), for a record without the file's identity.
    static let slack: TimeInterval = 0.002

    /// `path(of:checksum:)` is the saved file of `record` when it is still Ferry's and
    /// matches `checksum` (`nil`: none given); else `nil`, and the download runs again.
    static func path(of record: TaskRecord, checksum: Checksum?) -> String? {
        guard let path = record.finalPath, let file = SavedFile.at(path) else { return nil }
        let length = record.resume.totalLength ?? record.resume.durableOffset
        guard file.size == length else { return nil }
        if let saved = record.savedFile {
            guard file.modifiedNanoseconds == saved.modifiedNanoseconds, file.inode == saved.inode else { return nil }
        } else if let finished = record.finishedAt {
            let modified = TimeInterval(file.modifiedNanoseconds) / 1e9
            guard modified <= finished.timeIntervalSince1970 + slack else { return nil }
        }
        if let checksum {
            guard (try? checksum.algorithm.hex(ofFileAt: path, followingLinks: false).get()) == checksum.hex else { return nil }
        }
        return path
    }
}
