import ArgumentParser
import FerryKit
import Foundation

/// `FerryCommand` is the root of the command line: `ferry` alone, and its subcommands.
struct FerryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ferry",
        abstract: "A terminal download/upload manager.",
        discussion: """
        Run `ferry` alone (or `ferry tui`) to open the terminal UI on the saved queue.

        Every command reads its defaults from ${XDG_CONFIG_HOME:-~/.config}/ferry/config \
        (aria2's option names; see ferry config); --config FILE reads another, --no-config none.

        Exit status: 0 all transfers succeeded; 1 at least one transfer failed; 2 usage or \
        input error; 3 checksum mismatch; 4 local file error (permissions, disk full); \
        130 interrupted.
        """,
        version: FerryVersion.string,
        subcommands: [GetCommand.self, PutCommand.self, AddCommand.self, ListCommand.self, ResumeCommand.self,
                      PauseCommand.self, RetryCommand.self, RemoveCommand.self, MoveCommand.self, RetargetCommand.self, LimitCommand.self, DaemonCommand.self, StopCommand.self, ConfigCommand.self,
                      TerminalCommand.self, NetworkMonitorCommand.self],
        defaultSubcommand: TerminalCommand.self
    )
}

/// `FerryMain` runs the command line and maps every outcome to the documented exit status.
@main
enum FerryMain {
    static func main() async {
        OpenFileLimit.raise()
        // The configuration file's values go in front of the command line's own.
        let arguments: [String]
        do throws(ConfigFile.Problem) {
            arguments = PutCommand.givingResumableItsDefault(
                try ConfigDefaults.apply(to: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
        } catch {
            Console.error(error.description)
            Foundation.exit(ExitStatus.usage.code)
        }
        if let message = CommandSuggestion.unknownCommand(in: arguments) ?? CommandSuggestion.continueHint(arguments: arguments) {
            Console.error(message)
            Foundation.exit(ExitStatus.usage.code)
        }
        do {
            var command = try FerryCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitStatus {
            Foundation.exit(exit.code)
        } catch {
            let code = FerryCommand.exitCode(for: error)
            var message = FerryCommand.fullMessage(for: error)
            if let hint = CommandSuggestion.unknownOption(message, arguments: arguments),
               let end = message.firstIndex(of: "\n") {
                message.insert(contentsOf: ". " + hint, at: end)
            }
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            if !message.isEmpty { Console.error(message) }
            // Usage errors are status 2, as documented (ArgumentParser's own default is 64).
            Foundation.exit(code == .validationFailure || code.rawValue == 64 ? 2 : code.rawValue)
        }
    }
}

/// `ExitStatus` ends the process with a status once the command has said everything it had to.
struct ExitStatus: Error {
    let code: Int32

    static let success = ExitStatus(code: 0)
    static let transferFailed = ExitStatus(code: 1)
    static let usage = ExitStatus(code: 2)
    static let localFile = ExitStatus(code: 4)
    static let interrupted = ExitStatus(code: 130)
}
