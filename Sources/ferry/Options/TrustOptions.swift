import ArgumentParser
import FerryKit
import Foundation

/// `TrustOptions` are curl's TLS options for the transfers a command runs: the authorities
/// to trust, pins, a client certificate, and `--insecure`. The environment's authorities
/// (`CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `SSL_CERT_DIR`) apply where no option names one.
struct TrustOptions: ParsableArguments {
    @Option(name: .customLong("cacert"), help: ArgumentHelp("Trust the certificate authorities in FILE (PEM) instead of the system's.", valueName: "FILE"))
    var caFile: String?

    @Option(name: .customLong("capath"), help: ArgumentHelp("Trust the certificate authorities in DIR (hashed names, as c_rehash makes them).", valueName: "DIR"))
    var caDirectory: String?

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not check TLS certificates or host names (a warning says so).")
    var insecure = false

    @Option(name: .customLong("pin"), help: ArgumentHelp("Accept only this public key (sha256//BASE64, or a PEM public key file) or these certificates (a PEM file: the only anchors); repeatable, any match passes.", valueName: "VALUE"))
    var pins: [String] = []

    @Option(name: .customLong("cert"), help: ArgumentHelp("Present the client certificate in FILE (PEM; its key too unless --key).", valueName: "FILE"))
    var clientCertificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("The private key of --cert (PEM, unencrypted).", valueName: "FILE"))
    var clientKey: String?

    /// `given` is true when any option was given (the environment aside).
    var given: Bool {
        caFile != nil || caDirectory != nil || insecure || !pins.isEmpty || clientCertificate != nil || clientKey != nil
    }

    /// `policy(environment:)` is the policy these options make, the environment's authorities
    /// added; throws an input error naming the option when a file cannot be read or a pin is bad.
    func policy(environment: [String: String]) throws(FerryError) -> SecurityPolicy {
        var policy = SecurityPolicy(verifiesPeer: !insecure)
        for (option, path) in [("--cacert", caFile), ("--cert", clientCertificate), ("--key", clientKey)] {
            guard let path else { continue }
            guard access(path, R_OK) == 0 else { throw .input(.invalidOption("\(option) \(path): \(String(cString: strerror(errno)))")) }
        }
        if let caDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: caDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .input(.invalidOption("--capath \(caDirectory): not a directory"))
            }
        }
        if clientKey != nil && clientCertificate == nil {
            throw .input(.invalidOption("--key is the key of --cert: give --cert FILE too"))
        }
        policy.certificateAuthorityFile = caFile
        policy.certificateAuthorityDirectory = caDirectory
        policy.clientCertificateFile = clientCertificate
        policy.clientKeyFile = clientKey
        for pin in pins {
            try policy.addPin(pin)
        }
        return policy.withEnvironment(environment)
    }
}
