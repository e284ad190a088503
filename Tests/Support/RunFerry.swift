import Foundation

/// `runFerry(_:stateDirectory:currentDirectory:timeout:)` runs the built `ferry` binary to the
/// end with its journal in `stateDirectory` (`FERRY_STATE_DIR`), so tests never touch the
/// user's state directory nor lock each other out.
///
/// `stateDirectory` `nil` (the default) uses a fresh temporary directory, removed afterwards.
public func runFerry(_ arguments: [String], stateDirectory: URL? = nil, currentDirectory: URL? = nil, timeout: Duration = .seconds(120)) throws -> ProcessResult {
    let temporary = stateDirectory == nil ? try TemporaryDirectory(prefix: "ferry-state") : nil
    defer { temporary?.remove() }
    let state = stateDirectory ?? temporary?.url ?? URL(fileURLWithPath: NSTemporaryDirectory())
    let environment = ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }
    return try run(executable: try ferryExecutableURL().path, arguments: arguments, environment: environment, currentDirectory: currentDirectory, timeout: timeout)
}
