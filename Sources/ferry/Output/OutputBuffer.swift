import FerryKit
import Foundation

/// `OutputBuffer` collects lines for stdout and writes them in 64 KiB blocks, so long
/// listings cost few system calls.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(80 * 1024)
    }

    /// `append(line:)` adds `line` and a newline, writing out when the buffer is full.
    mutating func append(line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(0x0A)
        if bytes.count >= 64 * 1024 { flush() }
    }

    /// `append(lineBytes:)` adds a line given as UTF-8 and a newline.
    mutating func append(lineBytes line: [UInt8]) {
        bytes.append(contentsOf: line)
        bytes.append(0x0A)
        if bytes.count >= 64 * 1024 { flush() }
    }

    /// `append(fields:separator:)` adds `fields` joined by `separator` and a newline, with no
    /// joined string made in between.
    mutating func append(fields: [String], separator: UInt8) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(separator) }
            bytes.append(contentsOf: field.utf8)
        }
        bytes.append(0x0A)
        if bytes.count >= 64 * 1024 { flush() }
    }

    /// `flush()` writes everything collected to stdout.
    mutating func flush() {
        _ = bytes.withUnsafeBytes { SystemCall.writeAll(STDOUT_FILENO, $0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
