import FerryKit
import FerryQueue
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
        let byLocation = file.sources(preferring: MetalinkTasks.locations("DE, fr"), protocol: MetalinkTasks.preferredProtocol(nil))
        #expect(byLocation.map(\.url) == ["https://b.example/f", "http://c.example/f", "http://a.example/f", "https://d.example/f"])
        let byProtocol = file.sources(preferring: MetalinkTasks.locations(nil), protocol: MetalinkTasks.preferredProtocol("https"))
        #expect(byProtocol.map(\.url) == ["https://b.example/f", "https://d.example/f", "http://a.example/f", "http://c.example/f"])
    }

    @Test func aMetalinkInAnInputListIsItsFilesWithTheEntrysOptions() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let metalink = try fixture.metalink(["/missing/disk.img", "/good/disk.img"])
        let list = fixture.work.file("list.txt")
        try Data("\(metalink.path)\n  dir=\(fixture.work.file("elsewhere").path)\n\(fixture.nginx.url("/good/disk.img").absoluteString)\n".utf8).write(to: list)

        let result = try fixture.get(["-i", list.path])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: fixture.work.file("elsewhere/images/disk.img")) == fixture.digest)
        #expect(try SHA256Hex.of(file: fixture.work.file("out/disk.img")) == fixture.digest)
    }

    @Test func aURLServingAMetalinkIsFollowedUnlessFollowMetalinkIsFalse() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let metalink = try fixture.metalink(["/good/disk.img"])
        try FileManager.default.createDirectory(at: fixture.www.file("lists"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: metalink, to: fixture.www.file("lists/disk.meta4"))
        try Data("not a metalink".utf8).write(to: fixture.www.file("lists/plain.meta4"))
        let url = fixture.nginx.url("/lists/disk.meta4").absoluteString

        // What a URL ending in .meta4 serves that is no Metalink is saved as any file.
        let followed = try fixture.get([url, fixture.nginx.url("/lists/plain.meta4").absoluteString])
        #expect(followed.exitStatus == 0, "\(followed.stderr)")
        #expect(followed.stderr.contains("following the Metalink"), "\(followed.stderr)")
        #expect(try SHA256Hex.of(file: fixture.work.file("out/images/disk.img")) == fixture.digest)
        #expect(try Data(contentsOf: fixture.work.file("out/plain.meta4")) == Data("not a metalink".utf8))

        // The document itself when asked.
        let saved = try fixture.get(["--follow-metalink=false", url])
        #expect(saved.exitStatus == 0, "\(saved.stderr)")
        #expect(try Data(contentsOf: fixture.work.file("out/disk.meta4")) == (try Data(contentsOf: metalink)))
        #expect(try fixture.get(["--follow-metalink=maybe", url]).exitStatus == 2)
    }
}
