import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `TrustRuleOptions` are the per-host TLS rules of the commands that run transfers:
/// `--trust 'HOST OPTION=VALUE ...'`, repeatable, made into a ``ServerTrustManager``. A host
/// with a rule is always checked by it, on the first connection and after any redirect; other
/// hosts by the command's own TLS options. A later rule for the same host replaces an earlier
/// one (the configuration file's `trust` lines come first, so the command line's win).
struct TrustRuleOptions: ParsableArguments {
    @Option(name: .customLong("trust"), help: ArgumentHelp(
        "TLS for one host, whatever the other TLS options say: 'HOST OPTION=VALUE ...' with check-certificate=false, ca-certificate=FILE, ca-directory=DIR, pin=VALUE (repeatable), certificate=FILE, private-key=FILE. HOST is a name or address, or *.DOMAIN for its subdomains. Repeatable.",
        valueName: "RULE"))
    var rules: [String] = []

    /// `Rule` is one `--trust` value read: its host pattern and its options in order.
    struct Rule {
        /// The option names a rule takes (aria2's, as the configuration file spells them).
        static let names = ["check-certificate", "ca-certificate", "ca-directory", "pin", "certificate", "private-key"]

        var host: String
        var options: [(name: String, value: String)]

        /// `init(parsing:)` reads `HOST OPTION=VALUE ...` (blanks between the parts, none
        /// inside a value); throws why it is not one, without the rule (the caller names it).
        init(parsing text: String) throws(TrustRuleError) {
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = parts.first else { throw TrustRuleError("give a host and its options: 'HOST OPTION=VALUE ...'") }
            guard !first.contains("=") else { throw TrustRuleError("the rule starts with its host, then OPTION=VALUE parts") }
            guard ServerTrustManager.isValidHostPattern(first) else {
                throw TrustRuleError("\(first.displayable) is not a host name, an address or *.DOMAIN")
            }
            guard parts.count > 1 else { throw TrustRuleError("no option: give at least one of \(Self.names.joined(separator: ", "))") }
            host = first
            options = []
            for part in parts.dropFirst() {
                guard let equals = part.firstIndex(of: "="), equals != part.startIndex else {
                    throw TrustRuleError("\(part.displayable) is not OPTION=VALUE")
                }
                let name = String(part[..<equals]).lowercased()
                let value = String(part[part.index(after: equals)...])
                guard Self.names.contains(name) else {
                    throw TrustRuleError("unknown option \(name.displayable) (one of \(Self.names.joined(separator: ", ")))")
                }
                guard !value.isEmpty else { throw TrustRuleError("\(name) needs a value") }
                if name == "check-certificate" {
                    guard ["true", "false"].contains(value.lowercased()) else {
                        throw TrustRuleError("check-certificate is true or false, not \(value.displayable)")
                    }
                } else if name != "pin", options.contains(where: { $0.name == name }) {
                    throw TrustRuleError("\(name) is given twice")
                }
                options.append((name, value))
            }
        }

        /// `text` is the rule written back (`HOST OPTION=VALUE ...`).
        var text: String {
            ([host] + options.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
        }

        /// `absolute()` is the rule with every file and directory made absolute (a key pin as it is).
        func absolute() -> Rule {
            var rule = self
            rule.options = options.map { option in
                let isPath = option.name != "check-certificate" && !option.value.hasPrefix("sha256//")
                return (option.name, isPath ? TaskOptionTable.absolute(option.value) : option.value)
            }
            return rule
        }

        /// `policy(environment:)` is the policy the options make, each read through
        /// `TaskOptionTable` (the same checks as a task's options), the environment's
        /// authorities added where the rule names none (as the TLS options do); throws why a
        /// file cannot be read or a pin is bad.
        func policy(environment: [String: String]) throws(TrustRuleError) -> SecurityPolicy {
            var draft = TaskDraft()
            for (name, value) in options {
                do throws(QueueError) {
                    _ = try TaskOptionTable.read(name, value, into: &draft)
                } catch {
                    throw TrustRuleError(error.description)
                }
            }
            let settings = draft.connection
            if settings.clientKey != nil && settings.clientCertificate == nil {
                throw TrustRuleError("private-key is the key of certificate: give certificate=FILE too")
            }
            return (settings.securityPolicy ?? SecurityPolicy()).withEnvironment(environment)
        }
    }

    /// `TrustRuleError` is why a rule was refused, without the rule.
    struct TrustRuleError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `parsedRules()` are the rules read, every path absolute; throws an input error naming
    /// the first bad rule.
    func parsedRules() throws(FerryError) -> [Rule] {
        var parsed: [Rule] = []
        for text in rules {
            do throws(TrustRuleError) {
                parsed.append(try Rule(parsing: text).absolute())
            } catch {
                throw Self.failure(text, error)
            }
        }
        return parsed
    }

    /// `manager(environment:)` is the rules as a trust manager, `nil` when none is given;
    /// throws an input error naming the first bad rule (a file that cannot be read, a bad pin).
    func manager(environment: [String: String]) throws(FerryError) -> ServerTrustManager? {
        let parsed = try parsedRules()
        guard !parsed.isEmpty else { return nil }
        var manager = ServerTrustManager()
        for (rule, text) in zip(parsed, rules) {
            let policy: SecurityPolicy
            do throws(TrustRuleError) {
                policy = try rule.policy(environment: environment)
            } catch {
                throw Self.failure(text, error)
            }
            try manager.setPolicy(policy, forHost: rule.host)
        }
        return manager
    }

    /// `checkedManager(environment:)` is `manager(environment:)` for a command that reads
    /// nothing else first: a bad rule is said on stderr and ends the command (exit 2); a
    /// rule that checks nothing is warned of.
    func checkedManager(environment: [String: String]) throws -> ServerTrustManager? {
        do throws(FerryError) {
            let manager = try manager(environment: environment)
            Self.warnIfInsecure(manager)
            return manager
        } catch {
            Console.error(error.description)
            throw ExitStatus.usage
        }
    }

    /// `warnIfInsecure(_:)` says on stderr which hosts are not checked at all (no certificate
    /// check and no pin).
    static func warnIfInsecure(_ manager: ServerTrustManager?) {
        for rule in manager?.rules ?? [] where !rule.policy.verifiesPeer && rule.policy.pinningMode == .none {
            Console.error("warning: --trust \(rule.pattern): TLS certificates and host names of \(rule.pattern) are not checked")
        }
    }

    /// `arguments` are the rules as arguments for another ferry (a daemon started for the
    /// terminal UI), every path absolute; valid rules only (read them with `manager` first).
    var arguments: [String] {
        ((try? parsedRules()) ?? []).flatMap { ["--trust", $0.text] }
    }

    /// `checkSyntax(_:)` says why `text` is not a rule (for the configuration file), `nil`
    /// when it reads as one; files and pins are checked by the command that runs.
    static func checkSyntax(_ text: String) -> String? {
        do throws(TrustRuleError) {
            _ = try Rule(parsing: text)
            return nil
        } catch {
            return error.reason
        }
    }

    private static func failure(_ text: String, _ error: TrustRuleError) -> FerryError {
        .input(.invalidOption("--trust '\(text.displayable)': \(error.reason)"))
    }
}
