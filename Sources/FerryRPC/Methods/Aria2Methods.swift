import FerryKit
import FerryQueue

/// `Aria2Methods` is the method table of aria2's JSON-RPC as Ferry answers it: data, one
/// entry per method, each mapped onto the journal and the scheduler (`docs/RPC.md` lists the
/// mapping and what differs from aria2).
public enum Aria2Methods {
    /// `table` is every aria2 method Ferry answers; `system.listMethods` lists them in this
    /// order, then Ferry's own (`FrontEndMethods`, `FerryMethods`).
    public static let table: [RPCMethod] = [
        RPCMethod("aria2.addUri", addUri),
        RPCMethod("aria2.addMetalink", addMetalink),
        RPCMethod("aria2.remove", remove),
        RPCMethod("aria2.forceRemove", remove),
        RPCMethod("aria2.pause", pause),
        RPCMethod("aria2.pauseAll", pauseAll),
        RPCMethod("aria2.forcePause", pause),
        RPCMethod("aria2.forcePauseAll", pauseAll),
        RPCMethod("aria2.unpause", unpause),
        RPCMethod("aria2.unpauseAll", unpauseAll),
        RPCMethod("aria2.tellStatus", tellStatus),
        RPCMethod("aria2.getUris", getUris),
        RPCMethod("aria2.changeUri", changeUri),
        RPCMethod("aria2.getFiles", getFiles),
        RPCMethod("aria2.getServers", getServers),
        RPCMethod("aria2.tellActive", tellActive),
        RPCMethod("aria2.tellWaiting", tellWaiting),
        RPCMethod("aria2.tellStopped", tellStopped),
        RPCMethod("aria2.changePosition", changePosition),
        RPCMethod("aria2.getOption", getOption),
        RPCMethod("aria2.changeOption", changeOption),
        RPCMethod("aria2.getGlobalOption", getGlobalOption),
        RPCMethod("aria2.changeGlobalOption", changeGlobalOption),
        RPCMethod("aria2.getGlobalStat", getGlobalStat),
        RPCMethod("aria2.purgeDownloadResult", purgeDownloadResult),
        RPCMethod("aria2.removeDownloadResult", removeDownloadResult),
        RPCMethod("aria2.getVersion", getVersion),
        RPCMethod("aria2.getSessionInfo", getSessionInfo),
        RPCMethod("aria2.shutdown", shutdown),
        RPCMethod("aria2.forceShutdown", shutdown),
        RPCMethod("aria2.saveSession", saveSession),
        RPCMethod(RPCDispatcher.multicallName) { _ throws(RPCError) in
            // Answered by the dispatcher, which runs the calls it carries; listed here so
            // `system.listMethods` names it.
            throw RPCError.failed("system.multicall cannot be nested")
        },
        RPCMethod("system.listMethods", needsToken: false, listMethods),
        RPCMethod("system.listNotifications", needsToken: false, listNotifications),
    ]

    /// `stoppedStates` are the states aria2 lists as stopped (`tellStopped`).
    static let stoppedStates: Set<TaskState> = [.done, .failed, .cancelled]
    /// `waitingStates` are the states aria2 lists as waiting (`tellWaiting`): paused too.
    static let waitingStates: Set<TaskState> = [.queued, .paused]

    // MARK: - System

    @Sendable static func listMethods(_ call: RPCCall) throws(RPCError) -> JSONValue {
        .array(RPCDispatcher.methods.map { .string($0.name) })
    }

    /// Notifications travel only over WebSocket.
    @Sendable static func listNotifications(_ call: RPCCall) throws(RPCError) -> JSONValue {
        .array(Aria2Notification.names.map { .string($0) })
    }

    @Sendable static func getVersion(_ call: RPCCall) throws(RPCError) -> JSONValue {
        ["version": .string(FerryVersion.string), "enabledFeatures": ["HTTPS"]]
    }

    @Sendable static func getSessionInfo(_ call: RPCCall) throws(RPCError) -> JSONValue {
        ["sessionId": .string(call.engine.sessionID)]
    }

    @Sendable static func shutdown(_ call: RPCCall) throws(RPCError) -> JSONValue {
        call.engine.requestShutdown()
        return "OK"
    }

    /// `saveSession`: the unfinished downloads are written to the `save-session` file in
    /// aria2's session format (`SessionFile`), which `ferry add -i` and `aria2c -i` read back;
    /// without a `save-session` file, aria2's error. The journal itself needs no saving.
    @Sendable static func saveSession(_ call: RPCCall) throws(RPCError) -> JSONValue {
        guard let path = call.engine.options.saveSession else { throw RPCError.failed("Filename is not given.") }
        let records = try call.engine.records(in: SessionFile.states)
        try SessionFile.write(SessionFile.text(records, engine: call.engine), to: path)
        return "OK"
    }
}
