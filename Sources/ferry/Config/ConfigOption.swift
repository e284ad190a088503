import FerryKit
import FerryQueue

/// `ConfigOption` is one option of the configuration file (aria2's name, or Ferry's own where
/// aria2 has none): the command-line arguments its value stands for, and the commands that
/// take them. The file's values come before the command line's, so an option given on the
/// command line wins; a repeatable one (`header`) adds to it.
struct ConfigOption: Sendable {
    /// The commands an option applies to.
    enum Command: String, CaseIterable, Sendable {
        case get, put, add, resume, daemon, tui
    }

    /// `Effect` is what a value does.
    enum Effect: Sendable {
        /// The value after this option (`dir=X` is `--dir X`).
        case value(String)
        /// `true` gives this flag, `false` nothing.
        case flag(String)
        /// `false` gives this flag, `true` nothing (`check-certificate=false` is `-k`).
        case inverseFlag(String)
        /// Arguments made from the value by Ferry's own rule (checked; throws a message).
        case custom(@Sendable (String) throws(ConfigMessage) -> [String])
        /// Read by the command in another way (named in `note`); no argument.
        case other
        /// Accepted, with no effect: Ferry always does this (`note` says what).
        case always
    }

    let key: String
    let effect: Effect
    let commands: Set<Command>
    /// The built-in value shown by `ferry config` when the file sets none.
    let builtIn: String
    /// What `ferry config` says of it.
    let note: String

    /// The arguments `value` stands for; throws a message for a value the option does not take.
    func arguments(for value: String) throws(ConfigMessage) -> [String] {
        switch effect {
        case .value(let option):
            guard !value.isEmpty else { throw ConfigMessage("\(key) needs a value") }
            return [option, value]
        case .flag(let option):
            return try Self.boolean(value, key: key) ? [option] : []
        case .inverseFlag(let option):
            return try Self.boolean(value, key: key) ? [] : [option]
        case .custom(let make):
            return try make(value)
        case .other, .always:
            return []
        }
    }

    static func boolean(_ value: String, key: String) throws(ConfigMessage) -> Bool {
        switch value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw ConfigMessage("\(key) is true or false, not \(value.displayable)")
        }
    }

    static func positive(_ value: String, key: String) throws(ConfigMessage) -> Int {
        guard let number = Int(value), number > 0 else { throw ConfigMessage("\(key) is a whole number above 0, not \(value.displayable)") }
        return number
    }

    static func rate(_ value: String, key: String) throws(ConfigMessage) -> String {
        do {
            _ = try TaskOptions.parseRate(value)
        } catch {
            throw ConfigMessage("\(key) is a rate such as 500K or 2M, not \(value.displayable)")
        }
        return value
    }
}

/// `ConfigMessage` is why a value was refused.
struct ConfigMessage: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
