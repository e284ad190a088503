import FerryQueue
import FuzzSupport
import Glibc

/// A batch file (aria2's input-file format, plain or gzip): reading ends, item lines only go
/// forward, and every `out=` name is a file name (no path, no NUL, not `.` or `..`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fd = scratch.descriptor
    invariant(ftruncate(fd, 0) == 0, "ftruncate: errno \(errno)")
    if let data, size > 0 {
        invariant(pwrite(fd, data, size, 0) == size, "pwrite: errno \(errno)")
    }
    invariant(lseek(fd, 0, SEEK_SET) == 0, "lseek: errno \(errno)")

    guard let reader = try? BatchInputReader(fileDescriptor: fd) else { return 0 }
    var lastLine = 0
    // Each entry or error ends at least one line, and each warning names an option of a line of
    // its own (once per name); a line ends at a LF, so there are at most 2 x (size + 1) items.
    var lastWarningLine = 0
    for _ in 0...(2 * (size + 1)) {
        let item: BatchItem?
        do {
            item = try reader.next()
        } catch {
            return 0 // damaged gzip, reported as an error
        }
        guard let item else { return 0 }
        switch item {
        case .entry(let entry):
            invariant(entry.line > lastLine, "entry line \(entry.line) after line \(lastLine)")
            lastLine = entry.line
            if let name = entry.task.spec.requestedName {
                invariant(!name.isEmpty && name != "." && name != "..", "out= accepted \(FileNameRule.shown(name))")
                invariant(!name.contains("/") && !name.unicodeScalars.contains("\0"), "out= accepted a path: \(FileNameRule.shown(name))")
            }
        case .warning(let warning):
            invariant(warning.line >= 1 && warning.line >= lastWarningLine, "warning on line \(warning.line) after line \(lastWarningLine)")
            lastWarningLine = warning.line
        case .error(let error):
            invariant(error.line >= 1, "error on line \(error.line)")
            if let entryLine = error.entryLine {
                invariant(entryLine < error.line, "option error on line \(error.line) for entry line \(entryLine)")
            }
        }
    }
    invariant(false, "more items than lines")
    return 0
}

/// `Scratch` is one unlinked temporary file the inputs are written to, reused for every run.
private final class Scratch: Sendable {
    let descriptor: Int32

    init() {
        var template = Array("/tmp/ferry-fuzz-batch-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        invariant(fd >= 0, "mkstemp: errno \(errno)")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = fd
    }
}

private let scratch = Scratch()

@main
enum Main {
    static func main() {
        runFuzzer(fuzzBatchInput)
    }
}
