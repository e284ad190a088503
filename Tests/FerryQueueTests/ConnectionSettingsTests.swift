import FerryKit
import Foundation
import GRDB
import Testing
@testable import FerryQueue

/// Schema version 6: a task's own trust, login, proxy, cookie and compression settings, read
/// from `key=value` options by `TaskOptionTable` and kept in the journal.
@Suite struct ConnectionSettingsTests {
    private static func sampleSettings() -> ConnectionSettings {
        var settings = ConnectionSettings()
        settings.caFile = "/etc/ferry/ca.pem"
        settings.pinnedKeys = ["sha256//" + Data(count: 32).base64EncodedString()]
        settings.user = "alice"
        settings.password = "pa55-word"
        settings.authScheme = .digest
        settings.usesNetrc = false
        settings.proxy = "http://bob:pr0xy-pass@127.0.0.1:3128"
        settings.noProxy = "localhost"
        settings.cookieFiles = ["/tmp/cookies.txt"]
        settings.cookieJar = "/tmp/jar.txt"
        settings.compressed = true
        return settings
    }

    @Test func aVersion5JournalIsMigratedAndItsTasksHaveNoSettingsOfTheirOwn() throws {
        // Given a journal written by version 5 with a task.
        let temp = try TemporaryDirectory()
        let path = try oldJournal(upTo: 5, in: temp, writing: oneQueuedDownloadRows)

        // When this version opens it.
        let opening = try Journal.open(at: path)

        // Then it is at the newest version and the task has no settings of its own.
        #expect(opening.recovery == nil)
        #expect(try opening.journal.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == Journal.schemaVersion)
        let task = try #require(try opening.journal.task(TaskID(1)))
        #expect(task.spec.connection.isEmpty)
    }

    @Test func settingsRoundTripAndAreReplaced() throws {
        let temp = try TemporaryDirectory()
        let journal = try Journal.open(at: temp.file("journal.sqlite")).journal
        let settings = Self.sampleSettings()
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/a")],
                                                         connection: settings)))
        let plain = try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/b")])))
        #expect(try journal.task(id)?.spec.connection == settings)
        #expect(try journal.task(plain)?.spec.connection.isEmpty == true)
        // A task without settings stores none.
        #expect(try journal.read { try String.fetchOne($0, sql: "SELECT connection FROM task WHERE id = ?", arguments: [plain.rawValue]) } == nil)

        var changed = settings
        changed.insecure = true
        changed.password = nil
        try journal.setConnection(changed, for: id)
        #expect(try journal.task(id)?.spec.connection == changed)
    }

    @Test func secretsAreMaskedWhereverSettingsAreShown() throws {
        let settings = Self.sampleSettings()
        let spec = TaskSpec(urls: [try TransferURL(validating: "https://example.com/a")], connection: settings)
        for text in [settings.description, spec.description, settings.summary.map(\.value).joined(separator: " ")] {
            #expect(!text.contains("pa55-word") && !text.contains("pr0xy-pass"), "\(text)")
        }
        #expect(settings.description.contains("http-user=alice") && settings.description.contains("http-passwd=***"))
    }

    @Test func theRequestGetsWhatIsSetAndKeepsTheRest() throws {
        var request = Request(url: try #require(URL(string: "https://example.com/a")))
        request.acceptsCompression = false
        request.usesNetrc = true
        Self.sampleSettings().apply(to: &request)
        #expect(request.securityPolicy?.certificateAuthorityFile == "/etc/ferry/ca.pem")
        #expect(request.securityPolicy?.pinningMode == .publicKey)
        #expect(request.login == Login(user: "alice", password: "pa55-word", scheme: .digest))
        #expect(request.usesNetrc == false)
        #expect(request.proxy == ProxySettings(url: "http://bob:pr0xy-pass@127.0.0.1:3128", noProxy: "localhost"))
        #expect(request.cookieFiles == ["/tmp/cookies.txt"] && request.cookieJar == "/tmp/jar.txt" && request.acceptsCompression)

        var untouched = Request(url: try #require(URL(string: "https://example.com/a")))
        untouched.usesNetrc = true
        ConnectionSettings().apply(to: &untouched)
        #expect(untouched.securityPolicy == nil && untouched.login == nil && untouched.usesNetrc && untouched.proxy == nil)
    }

    @Test func theOptionTableReadsAria2sNamesWithTheSameChecksEverywhere() throws {
        let temp = try TemporaryDirectory()
        let ca = try temp.write("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", to: "ca.pem")
        var draft = TaskDraft()
        for (key, value) in [("ca-certificate", ca), ("check-certificate", "false"), ("http-user", "alice"),
                             ("http-passwd", "pw"), ("http-auth", "basic"), ("all-proxy", "socks5h://127.0.0.1:1080"),
                             ("no-netrc", "true"), ("http-accept-gzip", "true"), ("split", "8"), ("max-connection-per-server", "4")] {
            #expect(try TaskOptionTable.read(key, value, into: &draft) == nil, "\(key)")
        }
        let pin = "sha256//" + Data(count: 32).base64EncodedString()
        #expect(try TaskOptionTable.read("pin", pin, into: &draft) == nil)
        #expect(draft.connection.caFile == ca && draft.connection.insecure)
        #expect(draft.connection.login == Login(user: "alice", password: "pw", scheme: .basic))
        #expect(draft.connection.proxy == "socks5h://127.0.0.1:1080" && draft.connection.usesNetrc == false)
        #expect(draft.connection.pinnedKeys == [pin] && draft.connections == 4)

        // Bad values are refused with the option's name; unknown and unapplied ones say why.
        let bad: [(String, String)] = [("ca-certificate", temp.file("missing.pem")), ("all-proxy", "ftp://x:1"),
                                       ("http-auth", "ntlm"), ("pin", "sha256//short"), ("check-certificate", "maybe"),
                                       ("split", "17")]
        for (key, value) in bad {
            #expect(throws: QueueError.self, "\(key)=\(value)") { try TaskOptionTable.read(key, value, into: &draft) }
        }
        #expect(try TaskOptionTable.read("https-proxy", "http://p:1", into: &draft) == "give all-proxy")
        #expect(try TaskOptionTable.read("bt-max-peers", "5", into: &draft) == "not an option Ferry knows")
    }

    @Test func anEntrysOwnOptionReplacesTheDefaultOfTheSameName() throws {
        var defaults = BatchDefaults(directory: "/dl")
        defaults.connection = Self.sampleSettings()
        var draft = TaskDraft()
        _ = try TaskOptionTable.read("http-user", "carol", into: &draft)
        _ = try TaskOptionTable.read("check-certificate", "false", into: &draft)
        let task = draft.task(urls: [try TransferURL(validating: "https://example.com/a")], defaults: defaults)
        let connection = task.spec.connection
        #expect(connection.user == "carol" && connection.password == "pa55-word" && connection.insecure)
        #expect(connection.caFile == "/etc/ferry/ca.pem" && connection.compressed)
    }

    @Test func timeLimitsAreKeptReadBackAndGivenToTheRequest() throws {
        var settings = ConnectionSettings()
        settings.connectTimeout = 2.5
        settings.maximumTime = 60
        // Kept in the journal's text and read back.
        let text = try #require(settings.journalText)
        #expect(try ConnectionSettings(journalText: text) == settings)
        // The options it shows (what a daemon is sent) give the same settings again.
        var draft = TaskDraft()
        for option in settings.options(revealingSecrets: true) {
            #expect(try TaskOptionTable.read(option.key, option.values[0], into: &draft) == nil, "\(option.key)")
        }
        #expect(draft.connection == settings)
        #expect(settings.description == "connect-timeout=2.5 max-time=60")
        var request = Request(url: try #require(URL(string: "https://example.com/a")))
        settings.apply(to: &request)
        #expect(request.connectTimeout == 2.5 && request.maximumTime == 60)
        for (key, value) in [("connect-timeout", "0"), ("connect-timeout", "soon"), ("max-time", "-1"), ("max-time", "inf")] {
            #expect(throws: QueueError.self, "\(key)=\(value)") { try TaskOptionTable.read(key, value, into: &draft) }
        }
    }
}
