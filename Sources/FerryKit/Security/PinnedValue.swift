import Foundation

extension SecurityPolicy {
    /// `addPin(_:)` adds one `--pin` value: a `sha256//BASE64` public-key hash (libcurl's
    /// form, several joined with `;` allowed), or a PEM file (or PEM text) holding a public key (pinned by
    /// its hash) or certificates (pinned as the only anchors). Throws an input error naming
    /// what is wrong; key pins and certificate pins do not mix (AFNetworking's modes).
    public mutating func addPin(_ value: String) throws(FerryError) {
        if value.hasPrefix("sha256//") {
            for part in value.split(separator: ";") {
                let hash = part.trimmingCharacters(in: .whitespaces)
                guard hash.hasPrefix("sha256//"), let digest = Data(base64Encoded: String(hash.dropFirst(8))), digest.count == 32 else {
                    throw .input(.invalidOption("--pin \(hash.prefix(60)): a public-key pin is sha256// followed by the base64 of 32 bytes"))
                }
                pinnedPublicKeyHashes.append(hash)
            }
        } else {
            let text: String
            do {
                // PEM text itself (a pin kept with a queued task), else a file.
                text = value.hasPrefix("-----BEGIN ") ? value : try Self.pemFileText(value)
            } catch {
                throw .input(.invalidOption("--pin \(value): neither sha256//BASE64 nor a readable PEM file"))
            }
            let blocks = Self.pemBlocks(in: text)
            let certificates = blocks.filter { $0.label == "CERTIFICATE" }
            let keys = blocks.filter { $0.label == "PUBLIC KEY" }
            guard !certificates.isEmpty || !keys.isEmpty else {
                throw .input(.invalidOption("--pin \(value): the file holds no PEM certificate or public key"))
            }
            pinnedCertificates += certificates.map(\.text)
            for key in keys {
                var hasher = ChecksumHasher(algorithm: .sha256)
                hasher.update(key.der)
                guard let digest = hasher.finalize() else {
                    throw .input(.invalidOption("--pin \(value): this system's libcrypto cannot compute SHA-256"))
                }
                pinnedPublicKeyHashes.append("sha256//" + Data(digest).base64EncodedString())
            }
        }
        if !pinnedCertificates.isEmpty && !pinnedPublicKeyHashes.isEmpty {
            throw .input(.invalidOption("--pin: give public keys or certificates, not both (a certificate pin makes the pinned certificates the only anchors)"))
        }
    }

    /// `pemFileText(_:)` is the text of a PEM file: a regular file of at most 1 MiB (a pin
    /// naming a device or a FIFO is refused, never read without end).
    static func pemFileText(_ path: String) throws -> String {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= 1 << 20 else {
            throw CocoaError(.fileReadUnknown)
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// `PEMBlock` is one `-----BEGIN LABEL-----` block: its label, its text and its bytes.
    struct PEMBlock {
        let label: String
        let text: String
        let der: Data
    }

    /// `pemBlocks(in:)` are the well-formed PEM blocks of `text`, in order.
    static func pemBlocks(in text: String) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var label: String?
        var body = ""
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if label == nil, line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
                body = ""
            } else if let current = label, line == "-----END \(current)-----" {
                if let der = Data(base64Encoded: body) {
                    // Written again in lines of 64 characters, as OpenSSL's reader expects.
                    var lines: [Substring] = []
                    var rest = Substring(body)
                    while !rest.isEmpty {
                        lines.append(rest.prefix(64))
                        rest = rest.dropFirst(64)
                    }
                    let text = "-----BEGIN \(current)-----\n" + lines.joined(separator: "\n") + "\n-----END \(current)-----\n"
                    blocks.append(PEMBlock(label: current, text: text, der: der))
                }
                label = nil
            } else if label != nil {
                body += line
            }
        }
        return blocks
    }
}
