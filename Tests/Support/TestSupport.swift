import Foundation

/// `TestSupport` namespaces facts shared by the test helpers: where the server scripts live.
public enum TestSupport {
    /// `TestSupport.serversDirectory` is `Tests/Servers` of this checkout, found from this
    /// source file's compile-time path.
    public static let serversDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Servers", isDirectory: true)

    /// `TestSupport.curlPath` is the system curl the harness tests drive: `/usr/bin/curl`.
    public static let curlPath = "/usr/bin/curl"
}
