/// aria2's `--save-session FILE` for the daemon: the file `saveSession` writes, set from the
/// command line (checked as the RPC's `save-session` option is), and written once more when
/// the daemon stops, as aria2 writes it on exit.
extension RPCEngine {
    /// `keepSession(at:)` makes `path` (absolute) the `save-session` file; an existing file
    /// that is not a session file is refused.
    public func keepSession(at path: String) throws(RPCError) {
        options.saveSession = try SessionFile.check(path, origin: .local)
    }

    /// `writeSession()` writes the unfinished downloads to the `save-session` file when one is
    /// set, and returns its path (`nil`: none set).
    public func writeSession() throws(RPCError) -> String? {
        guard let path = options.saveSession else { return nil }
        try SessionFile.write(SessionFile.text(try records(in: SessionFile.states), engine: self), to: path)
        return path
    }
}
