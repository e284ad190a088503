import ArgumentParser
import FerryRPC
import Foundation

/// `RPCOptions` are the daemon's endpoint options: the TCP port, the interfaces and the
/// secret TCP clients must give.
struct RPCOptions: ParsableArguments {
    @Option(name: .customLong("rpc-port"), help: ArgumentHelp("Also listen for JSON-RPC on TCP port N (127.0.0.1 and ::1); needs a secret.", valueName: "N"))
    var rpcPort: Int?

    @Flag(name: .customLong("rpc-listen-all"), help: "With --rpc-port: listen on every interface, not only loopback, and answer requests for any host name (without it, a request whose Host is not 127.0.0.1, localhost or [::1] is refused, which stops DNS rebinding).")
    var rpcListenAll = false

    @Flag(name: .customLong("rpc-allow-origin-all"), help: "Let web pages of any origin call the RPC (CORS), for web front ends such as AriaNg (without it, a request a browser sends from another site is refused before it runs).")
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
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let secret = RPCSecret(trimmed) else {
                Console.error("the RPC secret file \(rpcSecretFile) is empty")
                throw ExitStatus.usage
            }
            Self.secretWarnings(trimmed, file: rpcSecretFile).forEach(Console.error)
            return secret
        }
        if let value = environment["FERRY_RPC_SECRET"], let secret = RPCSecret(value) {
            Self.secretWarnings(value, file: ConfigDefaults.secretFile).forEach(Console.error)
            return secret
        }
        if let rpcSecret {
            Console.error("warning: --rpc-secret is visible to every user in the process list; prefer --rpc-secret-file or FERRY_RPC_SECRET")
            Self.secretWarnings(rpcSecret, file: nil).forEach(Console.error)
            return RPCSecret(rpcSecret)
        }
        return nil
    }

    /// `minimumSecretLength` is the length under which a secret is said to be easy to guess.
    static let minimumSecretLength = 16

    /// `secretWarnings(_:file:)` are the warnings about `secret`, read from `file` if given:
    /// shorter than `minimumSecretLength` characters (easy to guess), and a file other users
    /// may read (its group or world read bit), named. Printed on stderr, the daemon's log.
    static func secretWarnings(_ secret: String, file: String?) -> [String] {
        var warnings: [String] = []
        if secret.count < minimumSecretLength {
            warnings.append("warning: the RPC secret has \(secret.count) characters, easy to guess; use at least \(minimumSecretLength) random ones (openssl rand -hex 16)")
        }
        if let file, let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int,
           mode & 0o044 != 0 {
            warnings.append("warning: the RPC secret's file \(file) can be read by other users (mode \(String(mode, radix: 8))); chmod 600 \(file)")
        }
        return warnings
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
