import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `ferryExecutableURL()` is the built `ferry` binary the CLI tests run.
///
/// `$FERRY_BIN` wins when set. Otherwise the binary sits next to the test bundle in the
/// build directory (`.build/<triple>/debug/ferry`), found from the test process's own
/// path. Throws, naming every place it looked, when there is no executable there.
public func ferryExecutableURL() throws -> URL {
    var candidates: [String] = []
    if let override = ProcessInfo.processInfo.environment["FERRY_BIN"], !override.isEmpty {
        guard access(override, X_OK) == 0 else {
            throw TestSupportError("FERRY_BIN=\(override) is not an executable file")
        }
        return URL(fileURLWithPath: override)
    }
    var directories: [URL] = []
    if let first = CommandLine.arguments.first {
        directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    if let executable = Bundle.main.executableURL {
        directories.append(executable.deletingLastPathComponent())
    }
    directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for directory in directories {
        let candidate = directory.standardizedFileURL.appendingPathComponent("ferry")
        candidates.append(candidate.path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
           !isDirectory.boolValue, access(candidate.path, X_OK) == 0 {
            return candidate
        }
    }
    throw TestSupportError(
        "no ferry executable in \(candidates.joined(separator: ", ")); build it (swift build) or set FERRY_BIN"
    )
}
