/// `FerryVersion` names the version of Ferry, used in `--version` and the User-Agent.
package enum FerryVersion {
    /// The version string, `"0.1.0"`.
    public static let string = "0.1.0"
    /// The default User-Agent, `ferry/VERSION`.
    public static let userAgent = "ferry/\(string)"
}
