import FerryKit
import Foundation
import FuzzSupport

/// Metalinks and Metalink/HTTP headers, as a hostile server sends them. The input is a
/// Metalink document, and its lines are response headers. A Metalink that parses names only
/// safe relative paths and hex hashes; the headers name at most `MetalinkHTTP.maximumMirrors`
/// absolute http(s) mirrors, never the response's own URL, and a digest of its algorithm's length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetalink(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.copy(data, size)
    if let metalink = try? Metalink.parse(Data(bytes)) {
        for file in metalink.files {
            invariant(!file.name.hasPrefix("/") && !file.name.split(separator: "/", omittingEmptySubsequences: false).contains(".."),
                      "unsafe name \(file.name)")
            invariant(!file.fileName.isEmpty, "empty file name in \(file.name)")
        }
    }
    let base = URL(string: "http://origin.example/f.iso")!
    var fields: [HTTPHeaders.Field] = []
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields.append(HTTPHeaders.Field(name: String(line[..<colon]), value: String(line[line.index(after: colon)...])))
    }
    for status in [200, 206] {
        let found = MetalinkHTTP(response: HTTPResponse(url: base, statusCode: status, headers: HTTPHeaders(fields)))
        invariant(found.mirrors.count <= MetalinkHTTP.maximumMirrors, "\(found.mirrors.count) mirrors")
        for mirror in found.mirrors {
            invariant(["http", "https"].contains(mirror.scheme?.lowercased() ?? ""), "mirror \(mirror)")
            invariant(mirror.absoluteString != base.absoluteString, "the response's own URL as a mirror")
        }
        if let checksum = found.checksum {
            invariant(checksum.hex.count == checksum.algorithm.hexLength, "digest \(checksum)")
        }
    }
    return 0
}

@main
enum Main {
    static func main() {
        runFuzzer(fuzzMetalink)
    }
}
