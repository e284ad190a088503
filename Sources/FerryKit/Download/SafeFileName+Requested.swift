extension SafeFileName {
    /// `RequestedNameProblem` says why a name a user asked for (`-o`, a batch file's `out=`)
    /// cannot be used as it is.
    public enum RequestedNameProblem: Sendable, Equatable {
        /// Empty, `.`, `..`, or a path with a `/`.
        case path
        /// A leading dot, control or bidi characters, surrounding blanks, or too long: what
        /// ``SafeFileName/sanitize(_:)`` would change.
        case unsafe
    }

    /// `check(requestedName:)` is the one check of a file name given by a user, for every
    /// source (command line, batch files); `nil` when the name is used exactly as given.
    public static func check(requestedName name: String) -> RequestedNameProblem? {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") { return .path }
        return sanitize(name) == name ? nil : .unsafe
    }
}
