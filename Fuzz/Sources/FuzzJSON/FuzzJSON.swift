@testable import FerryKit
import FuzzSupport

/// JSON text: a parsed value, written back (compact and pretty), parses to the same value.
/// A double with an integral value may come back as an integer (the writer drops `.0`, as
/// `JSONSerialization` does); that counts as the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.copy(data, size)
    let allowsFragments = size % 2 == 0
    guard let value = try? JSONParser.parse(bytes, allowsFragments: allowsFragments) else { return 0 }
    for options: JSONWritingOptions in [[.fragmentsAllowed], [.fragmentsAllowed, .prettyPrinted, .withoutEscapingSlashes]] {
        let text: String
        do {
            text = try JSONWriter(options: options).string(for: value)
        } catch {
            invariant(false, "a parsed value cannot be written: \(error)")
            return 0
        }
        do {
            let again = try JSONParser.parse(Array(text.utf8), allowsFragments: true)
            invariant(same(again, value), "\(text.debugDescription) reads back differently")
        } catch {
            invariant(false, "written text \(text.debugDescription) does not parse: \(error)")
        }
    }
    return 0
}

/// `same(_:_:)` is `==`, except that a double and an integer of the same value are the same.
private func same(_ a: ParameterValue, _ b: ParameterValue) -> Bool {
    switch (a, b) {
    case (.integer(let i), .double(let d)), (.double(let d), .integer(let i)):
        return Double(i) == d
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(same)
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
    default:
        return a == b
    }
}

@main
enum Main {
    static func main() {
        runFuzzer(fuzzJSON)
    }
}
