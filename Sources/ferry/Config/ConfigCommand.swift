import ArgumentParser
import FerryKit
import Foundation

/// `ConfigCommand` is `ferry config`: the settings the configuration file gives, each with
/// where its value comes from (the file and line, or built in), and the file's options Ferry
/// ignores.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the configuration file's settings and where each comes from.",
        discussion: """
        The file is ${XDG_CONFIG_HOME:-~/.config}/ferry/config, or FILE with --config FILE (any \
        command takes --config FILE and --no-config). Its lines are key=value with aria2's option \
        names, so an aria2.conf reads as it is; # starts a comment. Its values are the defaults \
        of every command: an option given on the command line wins. A line that cannot be read, \
        or a value an option does not take, stops every other command (exit 2) naming the file and \
        line (help, --version, ferry config and ferry stop still work; ferry config shows it \
        first); options Ferry does not have are listed here and otherwise ignored.
        """
    )

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var file: ConfigFile?
        var problem: ConfigFile.Problem?
        switch ConfigDefaults.selection {
        case .none:
            Console.output("configuration file: none (--no-config)")
        case .file(let path):
            (file, problem) = load(explicit: path, environment: environment)
        case .standard:
            (file, problem) = load(explicit: nil, environment: environment)
        }
        var resolvedIgnored: [(key: String, line: Int)] = []
        if let loaded = file {
            do throws(ConfigFile.Problem) {
                resolvedIgnored = try ConfigDefaults.resolve(loaded).ignored
            } catch {
                problem = error
            }
        }
        if let problem {
            // The first finding: what stops every other command until the line is fixed.
            Console.output("problem: \(problem.description) (other commands stop here, exit 2)")
        }
        let rows = ConfigOption.table.map { option -> [String] in
            guard let file, let entry = file.entries.last(where: { $0.key == option.key }) else {
                return [option.key, option.builtIn, "built in"]
            }
            let secret = option.key == "http-passwd" || option.key == "rpc-secret"
            var value = secret ? "***" : entry.value
            if option.key == "header" {
                value = file.entries.filter { $0.key == "header" }.map(\.value).joined(separator: " | ")
            }
            return [option.key, URLMasking.mask(value).displayable, "\(file.path.displayable):\(entry.line)"]
        }
        let keyWidth = rows.map { $0[0].count }.max() ?? 0
        let valueWidth = min(48, rows.map { $0[1].count }.max() ?? 0)
        Console.output("\("KEY".padding(toLength: keyWidth, withPad: " ", startingAt: 0))  \("VALUE".padding(toLength: valueWidth, withPad: " ", startingAt: 0))  FROM")
        for row in rows {
            let key = row[0].padding(toLength: keyWidth, withPad: " ", startingAt: 0)
            let value = row[1].count > valueWidth ? String(row[1].prefix(valueWidth - 1)) + "…" : row[1].padding(toLength: valueWidth, withPad: " ", startingAt: 0)
            Console.output("\(key)  \(value)  \(row[2])")
        }
        if let file, !resolvedIgnored.isEmpty {
            let list = resolvedIgnored.map { "\($0.key.displayable) (line \($0.line))" }.joined(separator: ", ")
            Console.output("ignored, Ferry has no such option: \(list) in \(file.path.displayable)")
        }
    }

    /// `load(explicit:environment:)` reads the file, saying which it is; a file that cannot be
    /// read is the problem returned instead.
    private func load(explicit: String?, environment: [String: String]) -> (ConfigFile?, ConfigFile.Problem?) {
        let path = explicit ?? ConfigFile.defaultPath(environment: environment)
        do throws(ConfigFile.Problem) {
            let file = try ConfigFile.load(explicit: explicit, environment: environment)
            Console.output("configuration file: \(path.displayable)\(file == nil ? " (none)" : "")")
            return (file, nil)
        } catch {
            Console.output("configuration file: \(path.displayable)")
            return (nil, error)
        }
    }
}
