import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// The pure values of the RPC layer: GIDs, JSON in and out, the secret's comparison, the
/// notifications of scheduler events.
struct RPCValueTests {
    @Test(arguments: [Int64(1), 26, 0xFFFF_FFFF, Int64.max])
    func gidIsTheTaskIDInSixteenHexDigitsBothWays(raw: Int64) throws {
        let gid = GID.string(for: TaskID(raw))
        #expect(gid.count == 16)
        #expect(GID.taskID(gid) == TaskID(raw))
        #expect(GID.taskID(gid.uppercased()) == TaskID(raw))
    }

    @Test(arguments: ["", "1a", "000000000000001", "0000000000000000", "+00000000000001a", "00000000000001ag", "ffffffffffffffff", "000000000000001a0"])
    func malformedGIDsNameNoTask(text: String) {
        #expect(GID.taskID(text) == nil)
    }

    @Test func jsonKeepsIntegersExactAndTellsBooleansFromNumbers() throws {
        let value = try #require(JSONValue.parse(Data(#"{"a": 9007199254740993, "b": true, "c": 1.5, "d": [null, "x"]}"#.utf8)))
        let members = try #require(value.objectValue)
        #expect(members["a"] == .integer(9_007_199_254_740_993))
        #expect(members["b"] == .bool(true))
        #expect(members["c"] == .number(1.5))
        #expect(members["d"] == [.null, "x"])
        #expect(JSONValue.parse(Data("{\"a\": ".utf8)) == nil)
        #expect(JSONValue.parse(Data(String(repeating: "[", count: 100_000).utf8)) == nil)
    }

    @Test func serializedJSONEscapesControlCharactersAndSortsKeys() throws {
        let value: JSONValue = ["b": "line\nbreak \"quoted\" \u{1}\u{2028}", "a": .integer(-3)]
        let text = String(decoding: value.serialized(), as: UTF8.self)
        #expect(text == #"{"a":-3,"b":"line\nbreak \"quoted\" \u0001\u2028"}"#)
        let again = try #require(try JSONSerialization.jsonObject(with: value.serialized()) as? [String: Any])
        #expect(again["b"] as? String == "line\nbreak \"quoted\" \u{1}\u{2028}")
    }

    @Test func serializedJSONEscapesOnlyWhatMustBeAndKeepsEverythingElse() throws {
        let tricky = "tab\there, back\\slash, DEL \u{7F}, C1 \u{85}\u{9F}, \u{2029}, not \u{A0} \u{2027} \u{202A}, é 中 🚢"
        let value: JSONValue = [.string(tricky), .encoded(Data(#"{"z":1}"#.utf8)), ["k": .encoded(Data("[]".utf8))], .null]
        let text = String(decoding: value.serialized(), as: UTF8.self)
        #expect(text == #"["tab\there, back\\slash, DEL \u007f, C1 \u0085\u009f, \u2029, not "#
            + "\u{A0} \u{2027} \u{202A}, é 中 🚢\"" + #",{"z":1},{"k":[]},null]"#)
        let again = try #require(try JSONSerialization.jsonObject(with: value.serialized()) as? [Any])
        #expect(again.first as? String == tricky)
    }

    @Test func secretMatchesOnlyItself() throws {
        let secret = try #require(RPCSecret("s3cret"))
        #expect(secret.matches(token: "s3cret"))
        #expect(!secret.matches(token: "s3cre"))
        #expect(!secret.matches(token: "s3cret!"))
        #expect(!secret.matches(token: ""))
        #expect(!secret.matches(token: "S3cret"))
        #expect(RPCSecret("") == nil)
    }

    @Test func schedulerEventsBecomeAria2Notifications() throws {
        let id = TaskID(26)
        let start = try #require(Aria2Notification.message(for: .started(id)))
        #expect(start == #"{"jsonrpc":"2.0","method":"aria2.onDownloadStart","params":[{"gid":"000000000000001a"}]}"#)
        #expect(Aria2Notification.message(for: .ended(id, .done, error: nil))?.contains("onDownloadComplete") == true)
        #expect(Aria2Notification.message(for: .ended(id, .failed, error: "x"))?.contains("onDownloadError") == true)
        #expect(Aria2Notification.message(for: .ended(id, .paused, error: nil))?.contains("onDownloadPause") == true)
        #expect(Aria2Notification.message(for: .ended(id, .cancelled, error: nil))?.contains("onDownloadStop") == true)
        #expect(Aria2Notification.message(for: .ended(id, .queued, error: nil)) == nil)
        #expect(Aria2Notification.message(for: .journalChanged) == nil)
    }

    @Test func encodedArraysJoinIntoOneArray() throws {
        func encoded(_ text: String) -> JSONValue { .encoded(Data(text.utf8)) }
        func text(_ value: JSONValue?) -> String? {
            guard case .encoded(let data)? = value else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        #expect(text(JSONValue.joiningArrays(encoded(#"[{"a":"1"}]"#), encoded(#"[{"b":"2"},{"c":"3"}]"#))) == #"[{"a":"1"},{"b":"2"},{"c":"3"}]"#)
        #expect(text(JSONValue.joiningArrays(encoded("[]"), encoded(#"["x"]"#))) == #"["x"]"#)
        #expect(text(JSONValue.joiningArrays(encoded(#"["x"]"#), encoded("[]"))) == #"["x"]"#)
        #expect(JSONValue.joiningArrays(.array([]), encoded("[]")) == nil)
        #expect(JSONValue.parse(Data(try #require(text(JSONValue.joiningArrays(encoded("[1]"), encoded("[2]")))).utf8)) == .array([.integer(1), .integer(2)]))
    }

    @Test func everyStateHasAnAria2Status() {
        let names = TaskState.allCases.map(DownloadStatus.name(of:))
        #expect(Set(names) == ["waiting", "active", "paused", "complete", "error", "removed"])
    }
}
