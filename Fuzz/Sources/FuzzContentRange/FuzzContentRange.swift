import FerryKit
import FuzzSupport

/// Content-Range values: a parsed range is coherent (first <= last < total, nothing negative)
/// and reads back the same from its canonical form.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentRange(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput.copy(data, size), as: UTF8.self)
    guard let range = ContentRange(parsing: text) else { return 0 }
    let printed: String
    switch range {
    case .bytes(let first, let last, let total):
        invariant(first >= 0, "negative first byte \(first)")
        invariant(first <= last, "first \(first) after last \(last)")
        if let total {
            invariant(last < total, "last \(last) not below total \(total)")
        }
        printed = "bytes \(first)-\(last)/\(total.map(String.init) ?? "*")"
    case .unsatisfied(let total):
        invariant(total >= 0, "negative total \(total)")
        printed = "bytes */\(total)"
    }
    invariant(ContentRange(parsing: printed) == range, "\(printed) does not read back as \(range)")
    return 0
}

@main
enum Main {
    static func main() {
        runFuzzer(fuzzContentRange)
    }
}
