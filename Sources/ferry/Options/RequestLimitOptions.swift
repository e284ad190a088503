import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `RequestLimitOptions` are curl's `-A/--user-agent`, `-e/--referer`, `--connect-timeout` and
/// `-m/--max-time`, taken by `ferry get` and `ferry put` with curl's meanings.
struct RequestLimitOptions: ParsableArguments {
    @Option(name: [.customShort("A"), .customLong("user-agent")], help: ArgumentHelp("Send NAME as the User-Agent header (instead of ferry/VERSION).", valueName: "NAME"))
    var userAgent: String?

    @Option(name: [.customShort("e"), .customLong("referer")], help: ArgumentHelp("Send URL as the Referer header.", valueName: "URL"))
    var referer: String?

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Seconds allowed to connect (fractions allowed, e.g. 2.5). Default: 30.", valueName: "SECONDS"))
    var connectTimeout: String?

    @Option(name: [.customShort("m"), .customLong("max-time")], help: ArgumentHelp("Give up a transfer that takes longer than SECONDS in all (fractions allowed); it fails with exit status 1 and is not retried. Default: no limit.", valueName: "SECONDS"))
    var maxTime: String?

    /// The most seconds either time limit takes (a year).
    static let maximumSeconds = 365.0 * 86_400

    /// `apply(to:)` sets the User-Agent and Referer given in `headers`, replacing any of `-H`
    /// or the configuration file; a value with control characters is an input error.
    func apply(to headers: inout HTTPHeaders) throws(FerryError) {
        if let userAgent { headers["User-Agent"] = try Self.headerValue(userAgent, option: "-A/--user-agent") }
        if let referer { headers["Referer"] = try Self.headerValue(referer, option: "-e/--referer") }
    }

    /// `parsed()` is `--connect-timeout` and `--max-time` in seconds, `nil` where not given;
    /// a value that is not a positive number of seconds is an input error.
    func parsed() throws(FerryError) -> (connect: Double?, total: Double?) {
        (try connectTimeout.map { text throws(FerryError) in try Self.seconds(text, option: "--connect-timeout") },
         try maxTime.map { text throws(FerryError) in try Self.seconds(text, option: "-m/--max-time") })
    }

    static func seconds(_ text: String, option: String) throws(FerryError) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite,
              value >= 0.001, value <= maximumSeconds else {
            throw .input(.invalidOption("invalid \(option) \"\(text.displayable)\": expected a number of seconds, 0.001 to \(Int(maximumSeconds))"))
        }
        return value
    }

    static func headerValue(_ value: String, option: String) throws(FerryError) -> String {
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
            throw .input(.invalidOption("invalid \(option) value: it has control characters (a line break?)"))
        }
        return value
    }
}
