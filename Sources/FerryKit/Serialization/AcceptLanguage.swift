import Foundation

/// `AcceptLanguage` builds the default `Accept-Language` header from the user's locale settings.
///
/// The languages come from the environment, in the order gettext uses them: `LANGUAGE` (a
/// colon-separated priority list) when it is set, otherwise the first of `LC_ALL`,
/// `LC_MESSAGES` and `LANG`. A POSIX locale name becomes a language tag
/// (`en_US.UTF-8` → `en-US`, `sr_RS@latin` → `sr-RS`); `C` and `POSIX` name no language.
/// With no language at all, `en` is used, as on Apple platforms.
public enum AcceptLanguage {
    /// The tag used when the environment names no language, `"en"`.
    public static let fallbackLanguage = "en"

    /// The preferred languages as tags, most preferred first, without duplicates.
    public static func preferredLanguages(environment: [String: String]) -> [String] {
        var names: [String] = []
        if let list = environment["LANGUAGE"], !list.isEmpty {
            names = list.split(separator: ":").map(String.init)
        }
        if names.compactMap(tag(fromLocaleName:)).isEmpty {
            let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
            names = locale.map { [$0] } ?? []
        }
        var tags: [String] = []
        for tag in names.compactMap(tag(fromLocaleName:)) where !tags.contains(tag) {
            tags.append(tag)
        }
        return tags.isEmpty ? [fallbackLanguage] : tags
    }

    /// The header value, as AFNetworking writes it: every language with a q-value, starting at
    /// 1 and decreasing by 0.1, formatted with `%0.1g`, stopping after q reaches 0.5, so at
    /// most six languages (`de-DE;q=1, de;q=0.9, en;q=0.8`).
    public static func headerValue(environment: [String: String]) -> String {
        var components: [String] = []
        for (index, language) in preferredLanguages(environment: environment).enumerated() {
            // Float arithmetic and `%0.1g`, exactly as AFNetworking computes it.
            let q = Float(1) - Float(index) * Float(0.1)
            components.append(language + ";q=" + String(format: "%0.1g", Double(q)))
            if q <= 0.5 { break }
        }
        return components.joined(separator: ", ")
    }

    /// The language tag for a POSIX locale name (`en_US.UTF-8` → `en-US`), or `nil` for `C`,
    /// `POSIX` and names that are not a language.
    public static func tag(fromLocaleName name: String) -> String? {
        var base = Substring(name)
        if let cut = base.firstIndex(where: { $0 == "." || $0 == "@" }) {
            base = base[..<cut]
        }
        guard !base.isEmpty, base != "C", base != "POSIX" else { return nil }
        let subtags = base.split(separator: "_", omittingEmptySubsequences: false)
        let isTag = subtags.allSatisfy { !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard isTag, let language = subtags.first, language.allSatisfy(\.isLetter) else { return nil }
        return subtags.joined(separator: "-")
    }
}
