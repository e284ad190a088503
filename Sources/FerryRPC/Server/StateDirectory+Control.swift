import FerryQueue

extension StateDirectory {
    /// `controlSocketFileName` is the daemon's Unix socket inside the directory.
    public static let controlSocketFileName = "control.sock"

    /// `controlSocketPath` is the daemon's Unix socket (`control.sock`, mode 0600).
    public var controlSocketPath: String {
        path.hasSuffix("/") ? path + StateDirectory.controlSocketFileName : path + "/" + StateDirectory.controlSocketFileName
    }
}
