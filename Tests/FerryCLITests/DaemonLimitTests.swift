import FerryTestSupport
import Foundation
import Testing

/// The daemon's limits changed while it runs, as AriaNg and the terminal UI change them.
@Suite(.serialized) struct DaemonLimitTests {
    @Test func changeGlobalOptionAndSetLimitsChangeTheLimitsInForce() throws {
        // Given a daemon with five transfers at once, four per host
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let before = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(before["max-concurrent-downloads"] as? String == "5" && before["max-per-host"] as? String == "4")

        // When an aria2 front end changes max-concurrent-downloads (a string, as aria2 takes it)
        #expect(try daemon.result("aria2.changeGlobalOption", [["max-concurrent-downloads": "2"]]) as? String == "OK")
        // Then the daemon reports it, and the terminal UI's feed carries it
        let after = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(after["max-concurrent-downloads"] as? String == "2")
        let activity = try #require(try daemon.result("ferry.activity") as? [String: Any])
        let limits = try #require(activity["limits"] as? [String: Any])
        #expect((limits["maxConcurrent"] as? NSNumber)?.intValue == 2 && (limits["maxPerHost"] as? NSNumber)?.intValue == 4)

        // When the UI's method sets both
        let set = try #require(try daemon.result("ferry.setLimits", [["maxConcurrent": 7, "maxPerHost": 3]]) as? [String: Any])
        #expect((set["maxConcurrent"] as? NSNumber)?.intValue == 7 && (set["maxPerHost"] as? NSNumber)?.intValue == 3)

        // Then out-of-range values are refused, with nothing of their call changed
        let zero = try daemon.call("aria2.changeGlobalOption", [["max-concurrent-downloads": "0"]])
        #expect(zero["error"] != nil)
        let bad = try daemon.call("aria2.changeGlobalOption", [["max-concurrent-downloads": "3", "max-overall-download-limit": "fast"]])
        #expect(bad["error"] != nil)
        let unchanged = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(unchanged["max-concurrent-downloads"] as? String == "7" && unchanged["max-per-host"] as? String == "3")
        // And an option Ferry does not use is accepted beside one it does, and named (as aria2
        // ignores the options it cannot change)
        #expect(try daemon.result("aria2.changeGlobalOption", [["max-concurrent-downloads": "3", "seed-ratio": "2.0"]]) as? String == "OK")
        let other = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(other["max-concurrent-downloads"] as? String == "3" && other["ferry-ignored"] as? String == "seed-ratio", "\(other)")
    }
}
