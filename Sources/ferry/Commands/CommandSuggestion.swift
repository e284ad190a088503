import ArgumentParser

/// `CommandSuggestion` names the nearest command or option to one the command line does not
/// have (`ferry gte URL`: did you mean `get`?), by edit distance (a swap of two neighbours
/// counts as one edit), instead of the terminal UI's usage line that `ferry` alone would
/// otherwise answer with.
enum CommandSuggestion {
    /// The commands `ferry WORD` may name.
    static var commandNames: [String] {
        FerryCommand.configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// `unknownCommand(in:)` is the message for a first word that is no command, `nil` when it
    /// is one (or an option: `ferry` alone opens the terminal UI, which takes no words).
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = commandNames
        let hidden = FerryCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !names.contains(word), !hidden.contains(word) else { return nil }
        let hint = nearest(to: word, among: names).map { " Did you mean '\($0)'?" } ?? " The commands are: \(names.joined(separator: ", "))."
        return "unknown command '\(word.displayable)'.\(hint)\nSee 'ferry --help'."
    }

    /// `unknownOption(_:arguments:)` is the hint for ArgumentParser's `Unknown option 'X'`
    /// `message` when it gave none: the nearest option of the command named in `arguments`.
    static func unknownOption(_ message: String, arguments: [String]) -> String? {
        guard !message.contains("Did you mean"),
              let start = message.range(of: "Unknown option '"),
              let end = message[start.upperBound...].firstIndex(of: "'") else { return nil }
        let option = String(message[start.upperBound..<end])
        let command = FerryCommand.configuration.subcommands.first { $0.configuration.commandName == arguments.first }
            ?? TerminalCommand.self
        let names = optionNames(of: command)
        return nearest(to: option, among: names).map { "Did you mean '\($0)'?" }
    }

    /// `continueHint(arguments:)` explains a `-c` taken for wget's continue (`ferry get -c
    /// URL`): `-c` is curl's cookie jar, so the URL would become the jar's name. `nil` unless
    /// `-c` of `get` or `put` is followed by an http or https URL.
    static func continueHint(arguments: [String]) -> String? {
        guard ["get", "put"].contains(arguments.first), let index = arguments.firstIndex(of: "-c"),
              index + 1 < arguments.count else { return nil }
        let value = arguments[index + 1].lowercased()
        guard value.hasPrefix("http://") || value.hasPrefix("https://") else { return nil }
        return "-c is the cookie jar (curl's -c FILE), not wget's continue: an interrupted download resumes "
            + "when the same command runs again, without an option"
    }

    /// The long and short option names in the help of `command`.
    static func optionNames(of command: ParsableCommand.Type) -> [String] {
        let help = FerryCommand.helpMessage(for: command, columns: 1000)
        var names: [String] = []
        for word in help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "/" }) {
            var name = String(word)
            if let equals = name.firstIndex(of: "=") { name = String(name[..<equals]) }
            guard name.hasPrefix("-"), name.count >= 2, name.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
                  name.dropFirst().first?.isLetter == true || name.hasPrefix("--") else { continue }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// `nearest(to:among:)` is the name closest to `word`, if it is close: at most two edits,
    /// and fewer than half of `word`'s characters.
    static func nearest(to word: String, among names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: distance(word, $0)) }.filter { $0.distance <= 2 && $0.distance * 2 < max(2, word.count) }
        return scored.min { $0.distance < $1.distance }?.name
    }

    /// `distance(_:_:)` is the optimal string alignment distance: insertions, deletions,
    /// substitutions and swaps of two neighbours, each one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var table = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[x.count][y.count]
    }
}
