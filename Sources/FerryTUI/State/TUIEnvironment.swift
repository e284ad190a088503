/// `TUIEnvironment` holds what the front end needs from the outside world, so that state
/// updates stay pure and testable.
public struct TUIEnvironment: Sendable {
    /// `defaultDirectory` pre-fills the add-download dialog's directory field. `"."` by default.
    public var defaultDirectory: String
    /// `lastDirectory` is the directory the last download was added to, remembered from an
    /// earlier run; it pre-fills the add-download dialog instead of `defaultDirectory`.
    /// `nil` by default.
    public var lastDirectory: String?
    /// `homeDirectory` expands a leading `~/` in paths typed into dialogs; `nil` (no expansion) by default.
    public var homeDirectory: String?
    /// `isReadableFile` tells whether an upload's file exists and can be read;
    /// `LocalFiles.isReadableFile` by default.
    public var isReadableFile: @Sendable (String) -> Bool
    /// `ringsWhenQueueEmpties` rings the terminal's bell when the last running or queued task
    /// ends (`--bell`); `false` by default.
    public var ringsWhenQueueEmpties = false

    /// `init(defaultDirectory:lastDirectory:homeDirectory:isReadableFile:)` makes an environment.
    public init(
        defaultDirectory: String = ".",
        lastDirectory: String? = nil,
        homeDirectory: String? = nil,
        isReadableFile: @escaping @Sendable (String) -> Bool = LocalFiles.isReadableFile
    ) {
        self.defaultDirectory = defaultDirectory
        self.lastDirectory = lastDirectory
        self.homeDirectory = homeDirectory
        self.isReadableFile = isReadableFile
    }

    /// `expandingTilde(_:)` replaces a leading `~` or `~/` with `homeDirectory` when it is known.
    public func expandingTilde(_ path: String) -> String {
        guard let home = homeDirectory, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }
}
