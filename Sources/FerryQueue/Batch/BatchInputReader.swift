import FerryKit
import Foundation
import Glibc

/// `BatchInputReader` reads a batch file in aria2's input-file format, one entry at a time.
///
/// A line that does not start with a blank holds one or more TAB-separated URIs, the
/// mirrors of one file. The lines after it that start with a space or tab are its options,
/// `key=value`, with aria2's names: `out` (a name, or a path inside `dir`), `dir`, `header`
/// (repeatable), `checksum` (`sha-256=HEX`; also `sha-1`, `sha-512`, `md5`), `pause`,
/// `max-download-limit` (`500K`, `1M`), `allow-overwrite`, `user-agent`, `referer`,
/// `max-tries`, `http-user`/`http-passwd` (a Basic login for the entry's own origin), and
/// `continue`/`auto-file-renaming` set as Ferry behaves anyway. Any other option is read
/// and ignored with a `BatchItem.warning` (once per option name): an `aria2` list reads as it
/// is. Lines starting with `#` and blank lines are skipped.
///
/// A bad line (a bad value, an invalid URL, invalid UTF-8...) yields a `BatchItem.error`
/// naming its line, and only its entry is skipped. The input is read in
/// chunks and may be gzip-compressed (detected by its magic bytes), so memory stays flat
/// for any number of lines. Not thread-safe: use it from one thread.
public final class BatchInputReader {
    /// `maximumLineLength` is the longest line accepted, in bytes (1 MiB).
    public static let maximumLineLength = 1 << 20

    /// `supportedOptions` are the aria2 options Ferry applies from a batch file.
    public static let supportedOptions: Set<String> = [
        "out", "dir", "header", "checksum", "pause", "max-download-limit", "allow-overwrite", "user-agent",
        "referer", "max-tries", "http-user", "http-passwd", "continue", "auto-file-renaming",
    ]


    private let defaults: BatchDefaults
    private let lines: LineReader
    private let ownedDescriptor: Int32?
    private let handle: FileHandle?
    private var pending: PendingEntry?
    /// `skippingOptions` is true after a bad URI line: its option lines are dropped silently.
    private var skippingOptions = false
    private var ready: [BatchItem] = []
    /// `warned` are the option names already warned about.
    private var warned: Set<String> = []
    private var finished = false

    /// `init(fileDescriptor:defaults:)` reads from `fileDescriptor`, which stays open.
    public convenience init(fileDescriptor: Int32, defaults: BatchDefaults = BatchDefaults()) throws(QueueError) {
        try self.init(descriptor: fileDescriptor, owned: false, handle: nil, defaults: defaults)
    }

    /// `init(fileHandle:defaults:)` reads from `fileHandle` (for example standard input),
    /// which stays open.
    public convenience init(fileHandle: FileHandle, defaults: BatchDefaults = BatchDefaults()) throws(QueueError) {
        try self.init(descriptor: fileHandle.fileDescriptor, owned: false, handle: fileHandle, defaults: defaults)
    }

    /// `open(path:standardInput:defaults:)` reads the file at `path`, or `standardInput`
    /// when `path` is `-`. A file it opened is closed when the reader goes away.
    public static func open(
        path: String,
        standardInput: FileHandle,
        defaults: BatchDefaults = BatchDefaults()
    ) throws(QueueError) -> BatchInputReader {
        if path == "-" {
            return try BatchInputReader(fileHandle: standardInput, defaults: defaults)
        }
        let fd = SystemCall.open(path, O_RDONLY)
        guard fd >= 0 else {
            throw .input(.cannotOpen(path: path, errno: errno))
        }
        do {
            return try BatchInputReader(descriptor: fd, owned: true, handle: nil, defaults: defaults)
        } catch {
            close(fd)
            throw error
        }
    }

    private init(descriptor: Int32, owned: Bool, handle: FileHandle?, defaults: BatchDefaults) throws(QueueError) {
        self.lines = LineReader(source: try InputSource(descriptor: descriptor),
                                maximumLength: BatchInputReader.maximumLineLength)
        self.ownedDescriptor = owned ? descriptor : nil
        self.handle = handle
        self.defaults = defaults
    }

    deinit {
        if let ownedDescriptor {
            close(ownedDescriptor)
        }
    }

    /// `next()` returns the next entry or line error, in line order, or `nil` at the end.
    ///
    /// Throws only when the input itself cannot be read (I/O error, damaged gzip).
    public func next() throws(QueueError) -> BatchItem? {
        while ready.isEmpty, !finished {
            guard let line = try lines.next() else {
                finishPending()
                finished = true
                break
            }
            switch line {
            case .tooLong(let number, let firstByte):
                if firstByte != BatchInputReader.hash {
                    handleBadLine(number, isOption: BatchInputReader.isBlank(firstByte),
                                  reason: .lineTooLong(limit: lines.maximumLength))
                }
            case .text(let number, let bytes):
                handle(number, bytes)
            }
        }
        return ready.isEmpty ? nil : ready.removeFirst()
    }

    /// `forEach(_:)` calls `body` with every item until the end of the input.
    public func forEach(_ body: (BatchItem) throws -> Void) throws {
        while let item = try next() {
            try body(item)
        }
    }

    // MARK: - Lines

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let hash = UInt8(ascii: "#")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private func handle(_ number: Int, _ rawBytes: ArraySlice<UInt8>) {
        var bytes = rawBytes
        if number == 1, bytes.starts(with: BatchInputReader.byteOrderMark) {
            bytes = bytes.dropFirst(3)
        }
        let isBlank = BatchInputReader.isBlank
        guard let firstVisible = bytes.firstIndex(where: { !isBlank($0) }) else {
            return // blank line
        }
        if bytes[firstVisible] == BatchInputReader.hash {
            return // comment
        }
        let isOption = isBlank(bytes[bytes.startIndex])
        guard let text = String(validating: bytes, as: UTF8.self) else {
            handleBadLine(number, isOption: isOption, reason: .invalidUTF8)
            return
        }
        if isOption {
            handleOption(number, text.trimmingBlanks())
        } else {
            finishPending()
            startEntry(number, text)
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// `handleBadLine(_:isOption:reason:)` reports a line that could not be read: a bad
    /// option line drops its entry; a bad URI line is an entry of its own, skipped.
    private func handleBadLine(_ number: Int, isOption: Bool, reason: QueueError.InputReason) {
        if isOption {
            rejectOption(number, reason)
        } else {
            finishPending()
            skippingOptions = true
            ready.append(.error(BatchLineError(line: number, reason: reason, entryLine: nil)))
        }
    }

    private func startEntry(_ number: Int, _ text: String) {
        let trimmed = text.trimmingBlanks()
        if Self.isMetalinkPath(trimmed) {
            // A local Metalink: its files are the entries, with this entry's options.
            skippingOptions = false
            pending = PendingEntry(line: number, urls: [], metalink: trimmed)
            return
        }
        var urls: [TransferURL] = []
        // Split on the UTF-8 bytes: a TAB is one byte, and a split by `Character` walked the
        // grapheme clusters of every line (a tenth of the instructions of `ferry add -i`).
        for field in text.utf8.split(separator: BatchInputReader.tab, omittingEmptySubsequences: true) {
            let uri = String(decoding: field, as: UTF8.self).trimmingBlanks()
            guard !uri.isEmpty else { continue }
            do {
                urls.append(try TransferURL(validating: uri))
            } catch {
                skippingOptions = true
                ready.append(.error(BatchLineError(line: number, reason: error.inputReason, entryLine: nil)))
                return
            }
        }
        skippingOptions = false
        pending = PendingEntry(line: number, urls: urls)
    }

    private func handleOption(_ number: Int, _ text: String) {
        guard pending != nil else {
            if !skippingOptions {
                ready.append(.error(BatchLineError(line: number, reason: .optionWithoutEntry, entryLine: nil)))
            }
            return
        }
        guard let equals = text.firstIndex(of: "=") else {
            rejectOption(number, .malformedOption)
            return
        }
        let key = String(text[..<equals]).trimmingBlanks()
        let value = String(text[text.index(after: equals)...]).trimmingBlanks()
        do {
            if let ignored = try pending?.apply(key: key, value: value), warned.insert(key).inserted {
                ready.append(.warning(BatchLineWarning(line: number, option: key, reason: ignored)))
            }
        } catch {
            rejectOption(number, error.inputReason)
        }
    }

    /// `rejectOption(_:_:)` reports a bad option line and drops the entry it belongs to.
    private func rejectOption(_ number: Int, _ reason: QueueError.InputReason) {
        guard let entry = pending else {
            if !skippingOptions {
                ready.append(.error(BatchLineError(line: number, reason: reason, entryLine: nil)))
            }
            return
        }
        pending = nil
        skippingOptions = true
        ready.append(.error(BatchLineError(line: number, reason: reason, entryLine: entry.line)))
    }

    private func finishPending() {
        guard let entry = pending else { return }
        pending = nil
        guard let path = entry.metalink else {
            ready.append(.entry(entry.merged(with: defaults)))
            return
        }
        do throws(QueueError) {
            for task in try Self.metalinkTasks(path, template: entry.merged(with: defaults).task, defaults: defaults) {
                ready.append(.entry(BatchEntry(line: entry.line, task: task)))
            }
        } catch {
            ready.append(.error(BatchLineError(line: entry.line, reason: error.inputReason, entryLine: nil)))
        }
    }

    /// `isMetalinkPath(_:)` is whether a URI line names a local Metalink (`FILE.meta4`,
    /// `FILE.metalink`) rather than URLs, as aria2 reads one.
    public static func isMetalinkPath(_ text: String) -> Bool {
        let lower = text.lowercased()
        return !lower.contains("://") && !lower.contains("\t") && (lower.hasSuffix(".meta4") || lower.hasSuffix(".metalink"))
    }

    /// `metalinkTasks(_:template:defaults:)` are the downloads of the files of the Metalink at
    /// `path` (`MetalinkTasks`), the sources ordered by the defaults' locations and protocol.
    static func metalinkTasks(_ path: String, template: NewTask, defaults: BatchDefaults) throws(QueueError) -> [NewTask] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(.invalidMetalink(path: path, detail: "cannot be read"))
        }
        do throws(FerryError) {
            return try MetalinkTasks.tasks(from: Metalink.parse(data), template: template, locations: defaults.metalinkLocations,
                                           preferredProtocol: defaults.metalinkProtocol)
        } catch {
            throw .input(.invalidMetalink(path: path, detail: error.description))
        }
    }
}

/// `PendingEntry` collects an entry's URIs and options until its last option line.
private struct PendingEntry {
    let line: Int
    let urls: [TransferURL]
    /// The path of the local Metalink the entry names instead of URLs.
    let metalink: String?
    var draft = TaskDraft()

    init(line: Int, urls: [TransferURL], metalink: String? = nil) {
        self.line = line
        self.urls = urls
        self.metalink = metalink
    }

    /// `apply(key:value:)` applies one option (`TaskOptionTable`); returns why it is ignored
    /// for an option read but not applied (`nil` when applied), and throws for a bad value.
    mutating func apply(key: String, value: String) throws(QueueError) -> String? {
        try TaskOptionTable.read(key, value, into: &draft)
    }

    func merged(with defaults: BatchDefaults) -> BatchEntry {
        BatchEntry(line: line, task: draft.task(urls: urls, defaults: defaults))
    }
}
