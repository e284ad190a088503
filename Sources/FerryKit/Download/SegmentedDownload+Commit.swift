import Foundation

extension SegmentedDownload {
    /// `commit(_:)` checks the file (its length, then its whole-file hash), makes it durable
    /// and gives it its final name.
    func commit(_ state: inout State) throws(FerryError) -> TransferResult {
        guard let file = state.file, let response = state.response else {
            throw .file(.io(path: state.partialFilePath ?? destination.fileName, errno: EBADF, operation: "write"))
        }
        let length = state.singleOffset ?? state.plan?.total ?? file.length
        if let total = state.current?.totalLength, length != total || file.length != total {
            throw file.length < total ? .integrity(.truncated(expected: total, received: file.length)) : .integrity(.lengthMismatch(expected: total, actual: file.length))
        }
        if let expected = state.expected {
            var hasher = ChecksumHasher(algorithm: expected.algorithm)
            try file.readPrefix(length) { hasher.update($0) }
            let actual = hasher.finalizeHex()
            if actual != expected.hex {
                file.discard()
                state.file = nil
                checkpoint(ResumeData(), [])
                throw .integrity(.checksumMismatch(algorithm: expected.algorithm.rawValue, expected: expected.hex, actual: actual))
            }
        }
        try file.synchronize()
        let keepsPartialName = policy.keepsPartialNameAfterCommit && !file.isUnnamed
        var final = destination
        if policy.usesContentDisposition, let name = response.headers["Content-Disposition"].flatMap(ContentDisposition.init(parsing:))?.safeFileName {
            final.fileName = name
        }
        let url = try file.commit(to: final, keepingPartialName: keepsPartialName)
        state.file = nil
        var result = TransferResult(response: response, fileURL: url, bytesReceived: length)
        result.partialNameKept = keepsPartialName
        if keepsPartialName { result.partialFilePath = state.partialFilePath }
        return result
    }
}
