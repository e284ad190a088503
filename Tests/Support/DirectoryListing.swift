import Foundation

/// `directoryListing(_:)` is the names in the directory at `url`, sorted; empty when it cannot be read.
public func directoryListing(_ url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
}
