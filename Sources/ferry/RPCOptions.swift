import ArgumentParser
import FerryRPC
import Foundation

/// `RPCOptions` are the daemon's endpoint options: the TCP port, the interfaces and the
/// secret TCP clients must give.
struct RPCOptions: ParsableArguments {
    @Option(name: .customLong("rpc-port"), help: ArgumentHelp("Also listen for JSON-RPC on TCP port N (127.0.0.1 and ::1); needs a secret.", valueName: "N"))
    var rpcPort: Int?

    @Flag(name: .customLong("rpc-listen-all"), help: "With --rpc-port: listen on every interface, not only loopback.")
    var rpcListenAll = false

    @Flag(name: .customLong("rpc-allow-origin-all"), help: "Let web pages of any origin call the RPC (CORS), for web front ends such as AriaNg.")
    var rpcAllowOriginAll = false

    @Option(name: .customLong("rpc-secret-file"), help: ArgumentHelp("Read the RPC secret from FILE (its first line).", valueName: "FILE"))
    var rpcSecretFile: String?

    @Option(name: .customLong("rpc-secret"), help: ArgumentHelp("The RPC secret (visible to other users in the process list: prefer --rpc-secret-file or $FERRY_RPC_SECRET).", valueName: "SECRET"))
    var rpcSecret: String?

    func validate() throws {
        if let rpcPort, !(1...65_535).contains(rpcPort) {
            throw ValidationError("--rpc-port must be between 1 and 65535")
        }
        if rpcListenAll && rpcPort == nil {
            throw ValidationError("--rpc-listen-all needs --rpc-port")
        }
    }

    /// `secret(environment:)` is the secret from `--rpc-secret-file`, else
    /// `$FERRY_RPC_SECRET`, else `--rpc-secret` (with a warning); `nil` when none is given.
    /// An unreadable or empty file is a usage error.
    func secret(environment: [String: String]) throws -> RPCSecret? {
        if let rpcSecretFile {
            guard let text = try? String(contentsOfFile: rpcSecretFile, encoding: .utf8) else {
                Console.error("cannot read the RPC secret file \(rpcSecretFile)")
                throw ExitStatus.usage
            }
            let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard let secret = RPCSecret(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                Console.error("the RPC secret file \(rpcSecretFile) is empty")
                throw ExitStatus.usage
            }
            return secret
        }
        if let value = environment["FERRY_RPC_SECRET"], let secret = RPCSecret(value) {
            return secret
        }
        if let rpcSecret {
            Console.error("warning: --rpc-secret is visible to every user in the process list; prefer --rpc-secret-file or FERRY_RPC_SECRET")
            return RPCSecret(rpcSecret)
        }
        return nil
    }

    /// `tcpEndpoints` are the TCP addresses to listen on: loopback (IPv6 optional), or every
    /// interface with `--rpc-listen-all`.
    var tcpEndpoints: [RPCEndpoint] {
        guard let rpcPort else { return [] }
        if rpcListenAll {
            return [RPCEndpoint(.tcp(host: "0.0.0.0", port: rpcPort))]
        }
        return [RPCEndpoint(.tcp(host: "127.0.0.1", port: rpcPort)),
                RPCEndpoint(.tcp(host: "::1", port: rpcPort), required: false)]
    }
}
