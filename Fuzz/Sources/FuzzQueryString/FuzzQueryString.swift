@testable import FerryKit
import Foundation
import FuzzSupport

/// Query strings from parameter trees built out of the input: only unreserved characters and
/// `%XX` escapes are written, there is one `&`-separated component per pair, and every field
/// and value decodes back to the text it was written from.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryString(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var budget = 64
    var parameters: Parameters = [:]
    while !input.isEmpty, budget > 0 {
        parameters[input.string(upTo: 24)] = value(&input, depth: 0, budget: &budget)
    }

    let pairs = QueryString.pairs(from: parameters)
    let query = QueryString.string(from: parameters)
    invariant(query.utf8.allSatisfy(isWritten), "unescaped byte in \(query.debugDescription)")
    // No pairs write nothing; a pair may write nothing too (a null under an empty key).
    let components = pairs.isEmpty ? [] : query.split(separator: "&", omittingEmptySubsequences: false)
    invariant(!pairs.isEmpty || query.isEmpty, "\(query.debugDescription) for no pairs")
    invariant(components.count == pairs.count, "\(components.count) components for \(pairs.count) pairs")
    for (component, pair) in zip(components, pairs) {
        let halves = component.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        invariant(decoded(halves[0]) == pair.field, "field \(halves[0]) does not decode to \(pair.field.debugDescription)")
        if case .null = pair.value {
            invariant(halves.count == 1, "a null value written with '='")
        } else {
            invariant(halves.count == 2, "a value written without '='")
            invariant(decoded(halves[1]) == pair.value.foundationDescription, "value \(halves[1]) does not decode")
        }
    }
    return 0
}

/// `value(_:depth:budget:)` builds a parameter value from the input, at most `budget` values in all.
private func value(_ input: inout FuzzInput, depth: Int, budget: inout Int) -> ParameterValue {
    budget -= 1
    let kind = Int(input.byte()) % (depth < 4 && budget > 0 ? 10 : 7)
    switch kind {
    case 0: return .string(input.string(upTo: 32))
    case 1: return .integer(Int(truncatingIfNeeded: UInt64(input.number(below: 65536)) << (input.byte() % 48)) - 1000)
    case 2:
        let bits = (0..<8).reduce(UInt64(0)) { result, _ in result << 8 | UInt64(input.byte()) }
        return .double(Double(bitPattern: bits))
    case 3: return .bool(input.byte() & 1 == 1)
    case 4: return .null
    case 5: return .data(Data(input.bytes(upTo: 16)))
    case 6: return .date(Date(timeIntervalSince1970: Double(input.number(below: 65536)) * 100_000))
    case 7:
        var elements: [ParameterValue] = []
        for _ in 0..<(input.byte() % 4) where budget > 0 { elements.append(value(&input, depth: depth + 1, budget: &budget)) }
        return .array(elements)
    case 8:
        var elements: Set<ParameterValue> = []
        for _ in 0..<(input.byte() % 4) where budget > 0 { elements.insert(value(&input, depth: depth + 1, budget: &budget)) }
        return .set(elements)
    default:
        var entries: [String: ParameterValue] = [:]
        for _ in 0..<(input.byte() % 4) where budget > 0 { entries[input.string(upTo: 16)] = value(&input, depth: depth + 1, budget: &budget) }
        return .dictionary(entries)
    }
}

private func isWritten(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"),
         UInt8(ascii: "%"), UInt8(ascii: "="), UInt8(ascii: "&"):
        true
    default:
        false
    }
}

/// `decoded(_:)` undoes `%XX` escapes; `nil` for a malformed escape or invalid UTF-8.
private func decoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var utf8 = text.utf8[...]
    while let byte = utf8.popFirst() {
        guard byte == UInt8(ascii: "%") else {
            bytes.append(byte)
            continue
        }
        guard let high = utf8.popFirst(), let low = utf8.popFirst(),
              let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
        bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
}

@main
enum Main {
    static func main() {
        runFuzzer(fuzzQueryString)
    }
}
