import FerryTestSupport
import Foundation
import Testing

/// `--compressed` as curl users give it, against nginx's `gzip_static`: the body comes
/// compressed and is saved decoded; without it nothing is asked for.
@Suite struct CompressedTests {
    @Test func aCompressedBodyIsSavedDecoded() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        let text = (0..<4000).map { "line \($0): the quick brown fox jumps over the lazy dog\n" }.joined()
        try text.write(to: www.file("notes.txt"), atomically: true, encoding: .utf8)
        let gzip = try run(executable: "gzip", arguments: ["-k", "-9", www.file("notes.txt").path], timeout: .seconds(30))
        #expect(gzip.exitStatus == 0, "\(gzip.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: www.file("notes.txt.gz").path)
        let compressedSize = try #require(try FileManager.default.attributesOfItem(atPath: www.file("notes.txt.gz").path)[.size] as? Int)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "gzip_static on;")
        defer { nginx.stop() }
        let url = nginx.url("/notes.txt").absoluteString

        let compressed = try runFerry(["get", "-v", "--compressed", "-d", out.path, "-o", "c.txt", url], stateDirectory: state.url)
        let plain = try runFerry(["get", "-d", out.path, "-o", "p.txt", url], stateDirectory: state.url)

        #expect(compressed.exitStatus == 0 && plain.exitStatus == 0, "\(compressed.stderr) \(plain.stderr)")
        #expect(compressed.stderr.contains("> Accept-Encoding: ") && compressed.stderr.contains("< Content-Encoding: gzip"), "\(compressed.stderr)")
        #expect(try String(contentsOf: out.file("c.txt"), encoding: .utf8) == text)
        #expect(try String(contentsOf: out.file("p.txt"), encoding: .utf8) == text)
        // nginx sent the .gz file to the first and the text to the second.
        let sizes = nginx.accessLog().split(separator: "\n").filter { $0.contains("/notes.txt") }.map { $0.split(separator: " ")[3] }
        #expect(sizes == ["\(compressedSize)", "\(text.utf8.count)"], "\(nginx.accessLog())")
    }
}
