import FerryKit
import FuzzSupport

/// `-F` arguments: a parsed spec, written back with every part quoted, parses to the same spec.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormFieldSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput.copy(data, size), as: UTF8.self)
    guard let spec = try? FormFieldSpec.parse(text) else { return 0 }
    invariant(!spec.name.isEmpty, "empty name")
    invariant(!spec.name.contains("="), "name with '='")
    let printed = print(spec)
    do {
        let again = try FormFieldSpec.parse(printed)
        invariant(again == spec, "\(printed.debugDescription) reads back as \(again), not \(spec)")
    } catch {
        invariant(false, "\(printed.debugDescription) (from \(text.debugDescription)) does not parse: \(error)")
    }
    return 0
}

/// `print(_:)` writes `spec` in `-F` syntax with the value, path and parameters quoted.
private func print(_ spec: FormFieldSpec) -> String {
    var text = spec.name + "="
    switch spec.content {
    case .text(let value): text += quoted(value)
    case .file(let path): text += "@" + quoted(path)
    case .fileContents(let path): text += "<" + quoted(path)
    }
    if let mimeType = spec.mimeType { text += ";type=" + quoted(mimeType) }
    if let fileName = spec.fileName { text += ";filename=" + quoted(fileName) }
    return text
}

private func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
        if scalar == "\"" || scalar == "\\" { result.unicodeScalars.append("\\") }
        result.unicodeScalars.append(scalar)
    }
    return result + "\""
}

@main
enum Main {
    static func main() {
        runFuzzer(fuzzFormFieldSpec)
    }
}
