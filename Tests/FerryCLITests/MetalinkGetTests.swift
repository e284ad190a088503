import FerryKit
import FerryTestSupport
import Foundation
import Testing
@testable import ferry

/// `ferry get FILE.meta4` (and `-M FILE`) against nginx on 127.0.0.1: a file's sources tried
/// best first, saved under its name in the download directory, checked against its hash.
@Suite(.serialized) struct MetalinkGetTests {
    static let size = 3 << 20

    struct Fixture {
        let work: TemporaryDirectory
        let www: TemporaryDirectory
        let nginx: NginxServer
        var digest: String { Pattern.sha256Hex(count: MetalinkGetTests.size, seed: 71) }

        init() throws {
            work = try TemporaryDirectory()
            www = try TemporaryDirectory(worldReadable: true)
            for folder in ["good", "bad"] {
                try FileManager.default.createDirectory(at: www.file(folder), withIntermediateDirectories: true)
                try Pattern.writeFile(at: www.file("\(folder)/disk.img"), count: MetalinkGetTests.size, seed: 71)
            }
            // One byte wrong in the bad mirror's copy.
            let handle = try FileHandle(forWritingTo: www.file("bad/disk.img"))
            try handle.seek(toOffset: 1_500_000)
            try handle.write(contentsOf: Data([0x5A]))
            try handle.close()
            nginx = try NginxServer.start(root: www.url)
        }

        /// `metalink(_:)` writes a Metalink 4 of `images/disk.img` from the mirrors `paths`, in
        /// priority order, with its SHA-256.
        func metalink(_ paths: [String]) throws -> URL {
            let urls = paths.enumerated().map { "<url priority=\"\($0.offset + 1)\">\(nginx.url($0.element).absoluteString)</url>" }
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="images/disk.img">
                <size>\(MetalinkGetTests.size)</size><hash type="sha-256">\(digest)</hash>\(urls.joined())
                </file></metalink>
                """
            let file = work.file("disk.meta4")
            try Data(text.utf8).write(to: file)
            return file
        }

        func get(_ arguments: [String]) throws -> ProcessResult {
            try runFerry(["get", "-d", work.file("out").path] + arguments, stateDirectory: work.file("state"), timeout: .seconds(120))
        }

        func stop() {
            nginx.stop()
            www.remove()
            work.remove()
        }
    }

    @Test func aMetalinksFileComesFromTheNextSourceWhenTheFirstFailsAndIsSavedUnderItsName() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let metalink = try fixture.metalink(["/missing/disk.img", "/good/disk.img"])

        let result = try fixture.get([metalink.path])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.stderr.contains("trying the next mirror"))
        let saved = fixture.work.file("out/images/disk.img")
        #expect(try SHA256Hex.of(file: saved) == fixture.digest)
    }

    @Test func aCorruptSourceFailsTheHashCleanlyWithStatus3AndNoFile() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let metalink = try fixture.metalink(["/missing/disk.img", "/bad/disk.img"])

        let result = try fixture.get(["-M", metalink.path])

        #expect(result.exitStatus == 3, "\(result.stderr)")
        #expect(result.stderr.contains("checksum mismatch (sha-256)"))
        #expect(!FileManager.default.fileExists(atPath: fixture.work.file("out/images/disk.img").path))
    }

    @Test func aHostileOrBrokenMetalinkIsAUsageErrorAndNothingIsFetched() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let hostile = fixture.work.file("evil.meta4")
        try Data("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"../../x\"><url>\(fixture.nginx.url("/good/disk.img").absoluteString)</url></file></metalink>".utf8).write(to: hostile)
        let broken = fixture.work.file("broken.metalink")
        try Data("<metalink><file name=\"a\">".utf8).write(to: broken)

        for (file, reason) in [(hostile, "leaves the download directory"), (broken, "unusable Metalink")] {
            let result = try fixture.get([file.path])
            #expect(result.exitStatus == 2, "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
        }
        #expect(fixture.nginx.accessLog().isEmpty)
    }

    @Test func preferredLocationsAndProtocolComeFirstInTheDocumentsOrder() {
        let sources = [
            Metalink.Source(url: "http://a.example/f", priority: 1, location: "us"),
            Metalink.Source(url: "https://b.example/f", priority: 2, location: "de"),
            Metalink.Source(url: "http://c.example/f", priority: 3, location: "de"),
            Metalink.Source(url: "https://d.example/f", priority: 4, location: nil),
        ]
        let file = Metalink.File(name: "f", size: nil, hashes: [], pieces: nil, sources: sources)
        let choice = MetalinkChoice(locations: "DE, fr", preferredProtocol: nil)
        let byLocation = file.sources(preferring: choice.locations, protocol: choice.preferredProtocol)
        #expect(byLocation.map(\.url) == ["https://b.example/f", "http://c.example/f", "http://a.example/f", "https://d.example/f"])
        let https = MetalinkChoice(locations: nil, preferredProtocol: "https")
        let byProtocol = file.sources(preferring: https.locations, protocol: https.preferredProtocol)
        #expect(byProtocol.map(\.url) == ["https://b.example/f", "https://d.example/f", "http://a.example/f", "http://c.example/f"])
    }
}
