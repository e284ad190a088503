import FerryKit
import Foundation
import Testing
@testable import FerryQueue

@Suite struct BatchInputReaderTests {
    private let sha = String(repeating: "0123456789abcdef", count: 4)

    /// `readAll(_:defaults:)` reads every item of the batch file at `path`.
    private func readAll(_ path: String, defaults: BatchDefaults = BatchDefaults()) throws -> [BatchItem] {
        let reader = try BatchInputReader.open(path: path, standardInput: FileHandle.standardInput, defaults: defaults)
        var items: [BatchItem] = []
        try reader.forEach { items.append($0) }
        return items
    }

    private func entries(_ items: [BatchItem]) -> [BatchEntry] {
        items.compactMap { if case .entry(let entry) = $0 { entry } else { nil } }
    }

    private func errors(_ items: [BatchItem]) -> [BatchLineError] {
        items.compactMap { if case .error(let error) = $0 { error } else { nil } }
    }

    @Test func blanksAroundMirrorsAndNonASCIISpacesInURLs() throws {
        // Given URI lines split by tabs with blanks around them, and URLs holding a white space
        // or control character outside ASCII, or DEL
        let temp = try TemporaryDirectory()
        let path = try temp.write(
            "https://a.example/1 \t\t  https://b.example/1\t\n"
                + "https://a.example/2\u{00A0}x\n"
                + "https://a.example/3\u{3000}\n"
                + "https://a.example/4\u{0085}\n"
                + "https://a.example/5\u{7F}\n"
                + "https://a.example/%C3%A9t%C3%A9\n",
            to: "input.txt")

        // When it is read
        let items = try readAll(path)

        // Then the mirrors are trimmed, every such character is refused, and percent-encoding
        // is fine
        let found = entries(items)
        #expect(found.map(\.line) == [1, 6])
        #expect(found.first?.task.spec.urls.map(\.string) == ["https://a.example/1", "https://b.example/1"])
        #expect(found.last?.task.spec.urls.map(\.string) == ["https://a.example/%C3%A9t%C3%A9"])
        let refused = errors(items)
        #expect(refused.map(\.line) == [2, 3, 4, 5])
        for error in refused {
            guard case .invalidURL(_, let detail) = error.reason else {
                Issue.record("line \(error.line): \(error.reason)")
                continue
            }
            #expect(detail == "contains spaces or control characters (CR, LF, tab...)")
        }
    }

    @Test func mirrorsOptionsCommentsAndBlankLines() throws {
        // Given an aria2 input file
        let temp = try TemporaryDirectory()
        let path = try temp.write("""
            # a comment

            https://a.example/f.iso\thttps://b.example/f.iso
              out=f.iso
              dir=/data
              header=Referer: https://a.example/
              header=Authorization: Bearer tok
              checksum=sha-256=\(sha)
              pause=true
              max-download-limit=500K
                # an indented comment
            http://c.example/plain
            """, to: "input.txt")

        // When it is read
        let items = try readAll(path)

        // Then two entries come out with their options
        #expect(errors(items).isEmpty)
        let found = entries(items)
        #expect(found.count == 2)
        let first = try #require(found.first)
        #expect(first.line == 3)
        #expect(first.task.spec.urls.map(\.string) == ["https://a.example/f.iso", "https://b.example/f.iso"])
        #expect(first.task.spec.requestedName == "f.iso")
        #expect(first.task.spec.destinationDirectory == "/data")
        #expect(first.task.spec.headers.map(\.name) == ["Referer", "Authorization"])
        #expect(first.task.spec.headers[1].value == "Bearer tok")
        #expect(first.task.spec.checksum == (try Checksum(algorithm: .sha256, hex: sha)))
        #expect(first.task.startsPaused)
        #expect(first.task.spec.options.maxDownloadLimit == 512_000)
        #expect(found[1].line == 12)
        #expect(found[1].task.spec.urls.map(\.string) == ["http://c.example/plain"])
        #expect(found[1].task.spec.requestedName == nil)
        #expect(!found[1].task.startsPaused)
    }

    @Test func crlfLineEndingsReadTheSame() throws {
        let temp = try TemporaryDirectory()
        let path = try temp.write("https://a.example/x\r\n  out=x.bin\r\n\r\n# c\r\nhttps://b.example/y\r\n", to: "crlf.txt")

        let found = entries(try readAll(path))

        #expect(found.map(\.task.spec.urls.first?.string) == ["https://a.example/x", "https://b.example/y"])
        #expect(found.first?.task.spec.requestedName == "x.bin")
    }

    @Test func defaultsApplyWhereAnEntryIsSilent() throws {
        // Given command-line defaults
        let defaults = BatchDefaults(
            directory: "/default",
            headers: [try HeaderField(parsing: "Referer: r"), try HeaderField(parsing: "User-Agent: ferry")],
            checksum: try Checksum(algorithm: .sha256, hex: sha),
            maxDownloadLimit: 1024,
            startsPaused: true,
            retries: 4,
            overwrite: true,
            priority: 3)
        let temp = try TemporaryDirectory()
        let path = try temp.write("""
            https://a.example/1
            https://a.example/2
             dir=/own
             header=referer: mine
             checksum=md5=\(String(repeating: "e", count: 32))
             max-download-limit=0
             pause=false
            """, to: "input.txt")

        // When read
        let found = entries(try readAll(path, defaults: defaults))

        // Then silent entries take every default, and set options win
        #expect(found.count == 2)
        let silent = found[0].task
        #expect(silent.spec.destinationDirectory == "/default")
        #expect(silent.spec.headers.map(\.masked) == ["Referer: r", "User-Agent: ferry"])
        #expect(silent.spec.checksum?.algorithm == .sha256)
        #expect(silent.spec.options == TaskOptions(maxDownloadLimit: 1024, retries: 4))
        #expect(silent.startsPaused && silent.spec.overwrite && silent.priority == 3)
        let own = found[1].task
        #expect(own.spec.destinationDirectory == "/own")
        #expect(own.spec.headers.map(\.masked) == ["User-Agent: ferry", "referer: mine"])
        #expect(own.spec.checksum?.algorithm == .md5)
        #expect(own.spec.options.maxDownloadLimit == nil)
        #expect(!own.startsPaused)
    }

    @Test func badLinesAreReportedWithTheirNumbersAndOnlyTheirEntryIsSkipped() throws {
        // Given a file with one good entry between each kind of bad line
        let temp = try TemporaryDirectory()
        var bytes = Array("""
              out=orphan
            https://ok.example/1
            ftp://bad.example/2
              out=ignored-with-its-entry
            https://ok.example/3
            https://skipped.example/4
              max-tries=lots
            https://ok.example/5
            https://skipped.example/6
              no-equals-sign
            https://ok.example/7
            https://skipped.example/8
              out=../escape
            https://user:secret@bad example/9

            """.utf8)
        bytes += [0x68, 0x74, 0x74, 0x70, 0xFF, 0xFE, 0x0A] // line 15: "http" + invalid UTF-8
        bytes += Array("https://ok.example/16\n  out=\u{1F600}.bin\n".utf8)
        bytes += Array("https://skipped.example/18\n  out=".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        bytes += Array("https://ok.example/20".utf8)
        let path = try temp.write(bytes, to: "bad.txt")

        // When read
        let items = try readAll(path)

        // Then the errors name their lines, and the good entries all survive
        let lineErrors = errors(items)
        #expect(lineErrors.map(\.line) == [1, 3, 7, 10, 13, 14, 15, 19])
        #expect(lineErrors.map(\.reason) == [
            .optionWithoutEntry,
            .invalidURL("ftp://bad.example/2", detail: "unsupported scheme 'ftp' (only http and https)"),
            .invalidOption(name: "max-tries", detail: "expected a number of attempts (0 for no limit)"),
            .malformedOption,
            .invalidOption(name: "out", detail: "must be a name or a path inside dir= (no empty, '.' or '..' parts)"),
            .invalidURL("https://***@bad example/9", detail: "contains spaces or control characters (CR, LF, tab...)"),
            .invalidUTF8,
            .invalidUTF8,
        ])
        #expect(lineErrors[2].description == "line 7: invalid value for option 'max-tries': expected a number of attempts (0 for no limit); the entry on line 6 was skipped")
        #expect(!lineErrors.map(\.description).joined().contains("secret"))
        let found = entries(items)
        #expect(found.map(\.line) == [2, 5, 8, 11, 16, 20])
        #expect(found.map { $0.task.spec.urls[0].string.split(separator: "/").last } == ["1", "3", "5", "7", "16", "20"])
        #expect(found[4].task.spec.requestedName == "\u{1F600}.bin")
    }

    @Test func anAria2ListReadsAsItIsWithAWarningPerIgnoredOption() throws {
        // Given a list written for aria2: mirrors, split and connections per server, continue,
        // user-agent, a login, an output path inside the directory, and an option Ferry does not know
        let temp = try TemporaryDirectory()
        let path = try temp.write("""
            # for aria2c -i
            https://a.example/iso\thttps://b.example/iso
              split=8
              max-connection-per-server=4
              continue=true
              user-agent=Wget/1.21
              referer=https://a.example/
              out=isos/debian.iso
              dir=/srv/dl
              max-tries=3
              allow-overwrite=true
            https://c.example/private
              http-user=me
              http-passwd=s3cret
              split=2
              some-future-option=1
            https://d.example/plain
              auto-file-renaming=true

            """, to: "aria2.txt")

        // When read
        let items = try readAll(path, defaults: BatchDefaults(directory: "/home/me/dl"))

        // Then every entry is kept, no error, one warning per ignored option name
        #expect(errors(items).isEmpty)
        let warnings = items.compactMap { if case .warning(let warning) = $0 { warning } else { nil } }
        #expect(warnings.map(\.option) == ["some-future-option"])
        #expect(warnings.map(\.line) == [16])
        #expect(warnings[0].description == "line 16: some-future-option is ignored (not an option Ferry knows); the entry is kept")
        let found = entries(items)
        #expect(found.count == 3)
        let iso = found[0].task.spec
        #expect(iso.urls.count == 2)
        #expect(iso.destinationDirectory == "/srv/dl/isos" && iso.requestedName == "debian.iso")
        #expect(iso.headers.map(\.masked) == ["User-Agent: Wget/1.21", "Referer: https://a.example/"])
        #expect(iso.options.retries == 2 && iso.overwrite)
        // split=8 with max-connection-per-server=4: the smaller, as aria2 uses it.
        #expect(iso.options.connections == 4)
        #expect(found[1].task.spec.options.connections == 2)
        #expect(found[2].task.spec.options.connections == nil)
        // The login is kept with the task (sent to its own origin only), its password never shown.
        let login = found[1].task.spec
        #expect(login.headers.isEmpty)
        #expect(login.connection.login == Login(user: "me", password: "s3cret"))
        #expect(login.description.contains("http-passwd=***") && !login.description.contains("s3cret"))
        #expect(found[2].task.spec.destinationDirectory == "/home/me/dl")
    }

    @Test func gzipInputIsDetectedAndInflated() throws {
        // Given a batch file compressed with gzip(1)
        let temp = try TemporaryDirectory()
        let path = try temp.write("https://a.example/1\n  out=one\n# c\nhttps://a.example/2\n", to: "input.txt")
        #expect(try run("/bin/gzip", ["-9", path]) == 0)

        // When read
        let found = entries(try readAll(path + ".gz"))

        // Then it reads as the plain file does
        #expect(found.map(\.line) == [1, 4])
        #expect(found.first?.task.spec.requestedName == "one")
    }

    @Test func concatenatedGzipMembersAreAllRead() throws {
        let temp = try TemporaryDirectory()
        let first = try temp.write("https://a.example/1\n", to: "one.txt")
        let second = try temp.write("https://a.example/2\n", to: "two.txt")
        #expect(try run("/bin/gzip", [first, second]) == 0)
        let joined = try Data(contentsOf: URL(fileURLWithPath: first + ".gz"))
            + Data(contentsOf: URL(fileURLWithPath: second + ".gz"))
        let path = try temp.write(Array(joined), to: "both.gz")

        #expect(entries(try readAll(path)).map(\.line) == [1, 2])
    }

    @Test func aTruncatedGzipStreamIsAnError() throws {
        let temp = try TemporaryDirectory()
        let path = try temp.write(String(repeating: "https://a.example/file\n", count: 2000), to: "input.txt")
        #expect(try run("/bin/gzip", [path]) == 0)
        let compressed = try Data(contentsOf: URL(fileURLWithPath: path + ".gz"))
        let cut = try temp.write(Array(compressed.prefix(compressed.count / 2)), to: "cut.gz")

        let error = #expect(throws: QueueError.self) { try readAll(cut) }
        guard case .input(.corruptGzip) = error else {
            Issue.record("expected a gzip error, got \(String(describing: error))")
            return
        }
    }

    @Test func dashReadsTheGivenStandardInput() throws {
        // Given a pipe standing in for standard input
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data("https://a.example/1\n  out=x\n".utf8))
        try pipe.fileHandleForWriting.close()

        // When "-" is read
        let reader = try BatchInputReader.open(path: "-", standardInput: pipe.fileHandleForReading)
        var items: [BatchItem] = []
        try reader.forEach { items.append($0) }

        // Then the piped entry comes out
        #expect(entries(items).map(\.task.spec.requestedName) == ["x"])
    }

    @Test func anOverlongLineIsAnErrorAndReadingGoesOn() throws {
        let temp = try TemporaryDirectory()
        let long = "https://a.example/" + String(repeating: "x", count: BatchInputReader.maximumLineLength + 10)
        let path = try temp.write("https://a.example/1\n\(long)\nhttps://a.example/3\n", to: "long.txt")

        let items = try readAll(path)

        #expect(errors(items).map(\.line) == [2])
        #expect(errors(items).first?.reason == .lineTooLong(limit: BatchInputReader.maximumLineLength))
        #expect(entries(items).map(\.line) == [1, 3])
    }

    @Test func aMissingFileIsAnError() throws {
        let temp = try TemporaryDirectory()
        let path = temp.file("missing.txt")
        #expect(throws: QueueError.input(.cannotOpen(path: path, errno: ENOENT))) {
            try BatchInputReader.open(path: path, standardInput: FileHandle.standardInput)
        }
    }

    @Test func twoHundredThousandLinesPlainAndCompressed() throws {
        // Given 100,000 entries of two lines each, plain and gzip-compressed
        let temp = try TemporaryDirectory()
        var text = ""
        text.reserveCapacity(6_000_000)
        for index in 0..<100_000 {
            text += "https://mirror.example/files/\(index).bin\n  out=file-\(index).bin\n"
        }
        let path = try temp.write(text, to: "big.txt")
        let plain = try readAll(path)
        #expect(try run("/bin/gzip", ["-k", path]) == 0)

        // When both are read
        let compressed = try readAll(path + ".gz")

        // Then every entry comes out, in order, with no error
        for items in [plain, compressed] {
            let found = entries(items)
            #expect(errors(items).isEmpty)
            #expect(found.count == 100_000)
            #expect(found.last?.line == 199_999)
            #expect(found.last?.task.spec.requestedName == "file-99999.bin")
        }
    }

    @Test func entriesGoIntoTheJournalInChunks() throws {
        // Given a batch file and a journal
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        var text = ""
        for index in 0..<2500 { text += "https://a.example/\(index)\n" }
        let path = try temp.write(text, to: "input.txt")

        // When entries are inserted 1,000 at a time as they are read
        let reader = try BatchInputReader.open(path: path, standardInput: FileHandle.standardInput)
        var chunk: [NewTask] = []
        while let item = try reader.next() {
            if case .entry(let entry) = item { chunk.append(entry.task) }
            if chunk.count == 1000 { try journal.insert(chunk); chunk.removeAll() }
        }
        try journal.insert(chunk)

        // Then the queue holds them all in file order
        #expect(try journal.countsByState()[.queued] == 2500)
        #expect(try journal.tasks(limit: 1, offset: 2499).first?.spec.urls.first?.string == "https://a.example/2499")
    }

    @Test func aLocalMetalinkLineIsItsFilesAndOneThatCannotBeReadIsItsLinesError() throws {
        // Given a list naming a Metalink of two files (one in a folder, with piece hashes),
        // one that does not exist, one with a hostile name, and a URL
        let temp = try TemporaryDirectory()
        let pieces = "<pieces length=\"1048576\" type=\"sha-256\"><hash>\(sha)</hash></pieces>"
        let good = try temp.write("""
            <?xml version="1.0"?><metalink xmlns="urn:ietf:params:xml:ns:metalink">
            <file name="isos/a.iso"><size>1000</size><hash type="sha-256">\(sha)</hash>\(pieces)
            <url priority="2">https://m2.example/a.iso</url><url priority="1" location="de">https://m1.example/a.iso</url></file>
            <file name="b.bin"><url>https://m1.example/b.bin</url></file></metalink>
            """, to: "two.meta4")
        let hostile = try temp.write("""
            <?xml version="1.0"?><metalink xmlns="urn:ietf:params:xml:ns:metalink">
            <file name="../evil"><url>https://m1.example/evil</url></file></metalink>
            """, to: "evil.metalink")
        let path = try temp.write("\(good)\n  dir=/srv/d\n  max-download-limit=1M\n\(temp.path)/none.meta4\n\(hostile)\nhttps://a.example/f\n", to: "input.txt")

        // When it is read
        let items = try readAll(path)

        // Then the Metalink's files are entries of its line with its options, sources best first
        let found = entries(items)
        #expect(found.map(\.line) == [1, 1, 6])
        let iso = try #require(found.first?.task)
        #expect(iso.spec.urls.map(\.string) == ["https://m1.example/a.iso", "https://m2.example/a.iso"])
        #expect(iso.spec.destinationDirectory == "/srv/d/isos" && iso.spec.requestedName == "a.iso")
        #expect(iso.spec.checksum?.hex == sha && iso.pieceHashes?.hashes == [sha])
        #expect(iso.spec.options.maxDownloadLimit == 1 << 20)
        #expect(found[1].task.spec.destinationDirectory == "/srv/d" && found[1].task.pieceHashes == nil)
        // and the two that cannot be used are errors of their lines, naming them.
        let refused = errors(items)
        #expect(refused.map(\.line) == [4, 5])
        #expect(refused.first?.reason.message.contains("none.meta4") == true)
        #expect(refused.last?.reason.message.contains("evil.metalink") == true)
    }
}
