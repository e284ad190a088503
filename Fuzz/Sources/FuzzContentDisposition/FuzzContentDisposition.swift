import FerryKit
import FuzzSupport

/// Content-Disposition values and the file names made from them: whatever the server sends,
/// a suggested name is a safe basename within the length limit, and `SafeFileName` keeps its
/// promises for any text (sanitized, shortened, numbered).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentDisposition(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.copy(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    // A header arrives as UTF-8 or, when it is not, as ISO Latin-1 (see ResponseHeadParser).
    let latin1 = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    for value in [text, latin1] {
        if let disposition = ContentDisposition(parsing: value) {
            invariant(!disposition.type.isEmpty, "empty disposition type")
            invariant(disposition.type == disposition.type.lowercased(), "type not lowercased")
            if let name = disposition.safeFileName {
                checkSafe(name, from: "safeFileName")
            }
        }
        let sanitized = SafeFileName.sanitize(value)
        checkSafe(sanitized, from: "sanitize")
        invariant(SafeFileName.sanitize(sanitized) == sanitized, "sanitize is not idempotent: \(FileNameRule.shown(sanitized))")
        let counter = bytes.first.map(Int.init) ?? 1
        checkSafe(SafeFileName.numbered(sanitized, counter), from: "numbered")
    }
    return 0
}

private func checkSafe(_ name: String, from source: String) {
    if let violation = FileNameRule.violation(of: name) {
        invariant(false, "\(source) gave an unsafe name (\(violation)): \(FileNameRule.shown(name))")
    }
    invariant(!name.hasPrefix("."), "\(source) gave a name with a leading dot: \(FileNameRule.shown(name))")
    invariant(name.utf8.count <= SafeFileName.maximumBytes, "\(source) gave \(name.utf8.count) bytes, more than \(SafeFileName.maximumBytes)")
}

@main
enum Main {
    static func main() {
        runFuzzer(fuzzContentDisposition)
    }
}
