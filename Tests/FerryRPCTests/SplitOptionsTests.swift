import FerryQueue
import Testing
@testable import FerryRPC

/// aria2's `split`, `max-connection-per-server` and `min-split-size` in `addUri` options, and
/// the same options carried from `ferry get` and `ferry add` to a daemon (`TaskRequest`).
struct SplitOptionsTests {
    @Test func theSmallerOfSplitAndConnectionsPerServerIsUsed() throws {
        let options = try AddOptions(["split": "8", "max-connection-per-server": .integer(4), "min-split-size": "2M"])
        let spec = options.task(urls: [try TransferURL(validating: "https://example.com/iso")]).spec
        #expect(spec.options.connections == 4)
        #expect(spec.options.minSplitSize == 2 << 20)
        #expect(try AddOptions(["split": "3"]).task(urls: [try TransferURL(validating: "https://example.com/a")]).spec.options.connections == 3)
        #expect(try AddOptions([:]).task(urls: [try TransferURL(validating: "https://example.com/a")]).spec.options.connections == nil)
    }

    @Test(arguments: [["split": JSONValue.string("0")], ["split": "17"], ["max-connection-per-server": "x"], ["min-split-size": "10"]])
    func outOfRangeValuesAreRefused(options: [String: JSONValue]) {
        #expect(throws: RPCError.self) { try AddOptions(options) }
    }

    @Test func aTaskRequestCarriesTheConnectionsToTheDaemon() throws {
        let spec = TaskSpec(urls: [try TransferURL(validating: "https://example.com/big")],
                            options: TaskOptions(connections: 6, minSplitSize: 4 << 20))
        let back = try TaskRequest.task(TaskRequest.json(NewTask(spec: spec)))
        #expect(back.spec.options.connections == 6)
        #expect(back.spec.options.minSplitSize == 4 << 20)
    }
}
