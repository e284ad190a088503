import FerryKit
import FerryQueue
import Foundation
import Synchronization

/// `ConfigDefaults` puts the configuration file's values in front of the command line's
/// arguments, right after the command's name, so that what the command line gives wins. It
/// also takes `--config FILE` and `--no-config` out of the arguments (any command takes them).
enum ConfigDefaults {
    /// `Selection` is what the command line said of the file.
    enum Selection: Sendable, Equatable {
        case standard
        case file(String)
        case none
    }

    /// The selection of this run, for `ferry config`.
    private static let chosen = Mutex(Selection.standard)
    static var selection: Selection { chosen.withLock { $0 } }

    /// The `-H` values the file put in front of the command line's (`header`, `user-agent`):
    /// `HeaderArguments` lets a header the command line gives by the same name replace them.
    private static let headers = Mutex<[String]>([])
    static var injectedHeaders: [String] { headers.withLock { $0 } }

    /// The configuration file the daemon's `rpc-secret` came from, if it did; `nil` by default.
    private static let secretSource = Mutex<String?>(nil)
    static var secretFile: String? { secretSource.withLock { $0 } }

    /// The file's problem this run went on without, for `ferry config`; `nil` by default.
    private static let skipped = Mutex<ConfigFile.Problem?>(nil)
    static var skippedProblem: ConfigFile.Problem? { skipped.withLock { $0 } }

    /// `worksDespiteProblems(_:)` tells whether the command line (without the program name and
    /// the `--config` options) asks for what a bad configuration file must not stop: help,
    /// the version, `ferry config` (which shows the problem) and `ferry stop`.
    static func worksDespiteProblems(_ arguments: [String]) -> Bool {
        if let first = arguments.first, ["help", "config", "stop"].contains(first) { return true }
        let options = arguments.prefix { $0 != "--" }
        return options.contains { ["-h", "--help", "--version"].contains($0) }
    }

    /// `apply(to:environment:)` is `arguments` (without the program name) with the file's
    /// values in front of the command's own; throws the file's first problem, unless the
    /// command works despite it (`worksDespiteProblems(_:)`): then the file is left out.
    static func apply(to arguments: [String], environment: [String: String]) throws(ConfigFile.Problem) -> [String] {
        var rest: [String] = []
        var selection = Selection.standard
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { rest += arguments[index...]; break }
            if argument == "--no-config" {
                selection = .none
            } else if argument == "--config" {
                guard index + 1 < arguments.count else {
                    throw ConfigFile.Problem(path: "--config", line: nil, message: "needs a FILE")
                }
                selection = .file(arguments[index + 1])
                index += 1
            } else if argument.hasPrefix("--config=") {
                selection = .file(String(argument.dropFirst("--config=".count)))
            } else {
                rest.append(argument)
            }
            index += 1
        }
        chosen.withLock { $0 = selection }
        let file: ConfigFile?
        let resolved: Resolved
        do throws(ConfigFile.Problem) {
            switch selection {
            case .none: file = nil
            case .file(let path): file = try ConfigFile.load(explicit: path, environment: environment)
            case .standard: file = try ConfigFile.load(explicit: nil, environment: environment)
            }
            resolved = try file.map { file throws(ConfigFile.Problem) in try resolve(file) } ?? Resolved()
        } catch {
            guard worksDespiteProblems(rest) else { throw error }
            skipped.withLock { $0 = error }
            return rest
        }
        guard file != nil else { return rest }
        // The command: its name first; none (or an option first) is the terminal UI.
        let first = rest.first
        let command: ConfigOption.Command?
        var insertAt = 1
        if let first, let named = ConfigOption.Command(rawValue: first) {
            command = named
        } else if first == nil || first?.hasPrefix("-") == true {
            if rest.contains(where: { ["-h", "--help", "--version", "--generate-completion-script", "--experimental-dump-help"].contains($0) }) { return rest }
            command = .tui
            rest.insert("tui", at: 0)
        } else {
            command = nil
        }
        guard let command else { return rest }
        if command == .daemon, let secret = resolved.secret, environment["FERRY_RPC_SECRET"] == nil {
            setenv("FERRY_RPC_SECRET", secret, 1)
            if let path = file?.path { secretSource.withLock { $0 = path } }
        }
        let applicable = resolved.arguments.filter { $0.commands.contains(command) }
        // Headers first, in order: HeaderArguments finds them at the front of the -H values.
        let headerArguments = applicable.filter { $0.arguments.first == "-H" }.flatMap(\.arguments)
        let injected = headerArguments + applicable.filter { $0.arguments.first != "-H" }.flatMap(\.arguments)
        headers.withLock { $0 = stride(from: 1, to: headerArguments.count, by: 2).map { headerArguments[$0] } }
        rest.insert(contentsOf: injected, at: insertAt)
        insertAt += injected.count
        return rest
    }

    /// `Resolved` is the file made into arguments, each with the commands that take them.
    struct Resolved {
        var arguments: [(commands: Set<ConfigOption.Command>, arguments: [String])] = []
        var secret: String?
        /// Keys Ferry does not have, with their first line.
        var ignored: [(key: String, line: Int)] = []
    }

    /// `resolve(_:)` checks every line's value (a bad one stops whatever the command) and
    /// makes the arguments.
    static func resolve(_ file: ConfigFile) throws(ConfigFile.Problem) -> Resolved {
        var resolved = Resolved()
        var user: (name: String, line: Int)?
        var password: String?
        var connections: (count: Int, line: Int)?
        for entry in file.entries {
            guard let option = ConfigOption.named(entry.key) else {
                if !resolved.ignored.contains(where: { $0.key == entry.key }) { resolved.ignored.append((entry.key, entry.line)) }
                continue
            }
            switch entry.key {
            case "http-user": user = (entry.value, entry.line)
            case "http-passwd": password = entry.value
            case "rpc-secret": resolved.secret = entry.value
            case "split", "max-connection-per-server":
                // aria2 uses the smaller of the two.
                guard let count = Int(entry.value), (1...16).contains(count) else {
                    throw ConfigFile.Problem(path: file.path, line: entry.line, message: "\(entry.key) is 1 to 16 connections, not \(entry.value.displayable)")
                }
                connections = (min(count, connections?.count ?? count), entry.line)
            default:
                do throws(ConfigMessage) {
                    let arguments = try option.arguments(for: entry.value)
                    try Self.checkTaskOption(entry.key, entry.value)
                    if !arguments.isEmpty { resolved.arguments.append((option.commands, arguments)) }
                } catch {
                    throw ConfigFile.Problem(path: file.path, line: entry.line, message: error.text)
                }
            }
        }
        if let connections {
            resolved.arguments.append(([.get, .add], ["--connections", String(connections.count)]))
        }
        if let user {
            guard !user.name.isEmpty, !user.name.contains(":") else {
                throw ConfigFile.Problem(path: file.path, line: user.line, message: "http-user is a user name without ':'")
            }
            let login = password.map { "\(user.name):\($0)" } ?? user.name
            resolved.arguments.append(([.get, .add, .put], ["-u", login]))
        }
        return resolved
    }

    /// `checkTaskOption(_:_:)` reads a task option's value through `TaskOptionTable`, the table
    /// batch files and RPC read it with: a value one of them refuses is refused here too.
    static func checkTaskOption(_ key: String, _ value: String) throws(ConfigMessage) {
        guard TaskOptionTable.option(named: key) != nil else { return }
        var scratch = TaskDraft()
        do {
            _ = try TaskOptionTable.read(key, value, into: &scratch)
        } catch {
            throw ConfigMessage(error.description)
        }
    }
}
