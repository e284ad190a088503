import FerryKit
import FerryQueue
import Foundation

extension Aria2Methods {
    /// `addMetalink(metalink, options, position)`: the files of a Metalink (its text in
    /// base64, as aria2 takes it), one task each, as `ferry get FILE.meta4` makes them: the
    /// sources best first (`metalink-location`, `metalink-preferred-protocol`), the name under
    /// `dir` (its folders made when it starts), the strongest hash checked. Answers the GIDs in
    /// the document's order. A Metalink that is not one, or is hostile, is refused whole.
    @Sendable static func addMetalink(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        guard let text = call.optional(0)?.stringValue,
              let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !data.isEmpty else {
            throw RPCError.invalidParams("parameter 1 must be a Metalink in base64")
        }
        let metalink: Metalink
        do throws(FerryError) {
            metalink = try Metalink.parse(data)
        } catch {
            throw RPCError.failed(error.description)
        }
        let engine = call.engine
        var given = try call.object(1)
        for (key, values) in engine.options.taskDefaults where given[key] == nil {
            given[key] = values.count == 1 ? .string(values[0]) : .array(values.map { .string($0) })
        }
        let locations = MetalinkTasks.locations(given.removeValue(forKey: "metalink-location")?.stringValue)
        let preferredProtocol = MetalinkTasks.preferredProtocol(given.removeValue(forKey: "metalink-preferred-protocol")?.stringValue)
        let options = try AddOptions(given, origin: call.origin)
        var template = options.task(urls: [], defaultDirectory: engine.newTaskDirectory)
        template.spec.destinationDirectory = template.spec.destinationDirectory ?? engine.newTaskDirectory
        let tasks: [NewTask]
        do throws(FerryError) {
            tasks = try MetalinkTasks.tasks(from: metalink, template: template, locations: locations, preferredProtocol: preferredProtocol)
        } catch {
            throw RPCError.failed(error.description)
        }
        let position = options.paused ? nil : call.optional(2)?.integerValue
        let ids = try engine.journalCall { () throws(QueueError) -> [TaskID] in
            // Without a position, in one transaction; at a position, one after the other from there.
            guard let position else { return try engine.journal.insert(tasks) }
            var ids: [TaskID] = []
            for task in tasks {
                let place = Int(min(max(position, 0), Int64(Int32.max - 10_000))) + ids.count
                ids.append(try engine.journal.insert(task, atPlaceOf: place, among: waitingStates))
            }
            return ids
        }
        for id in ids { engine.options.setIgnored(options.ignored, for: id) }
        await engine.runner.journalDidChange()
        return .array(ids.map { .string(GID.string(for: $0)) })
    }
}
