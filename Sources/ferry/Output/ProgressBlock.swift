import FerryKit
import FerryTUI

/// `ProgressBlock` lays out the live progress of `ferry get` on a terminal: one line per
/// running file (name, bar, percent, size, speed, ETA) and a total line, every line fitted to
/// the terminal's width so that nothing wraps (a wrapped line could not be redrawn in place).
/// At most `maximumFileLines` files are shown, then "+N more". Pure: the `Reporter` draws it.
struct ProgressBlock {
    /// `File` is one running file: the name it is shown by and its latest progress.
    struct File {
        var name: String
        var progress: TransferProgress
    }

    /// The narrowest terminal a bar is drawn on; below it a line is name, percent and speed.
    static let barMinimumWidth = 50

    /// `lines(files:finished:total:width:maximumFileLines:)` is the block for `files` in the
    /// order given, then the total line (`finished` of `total` files saved, bytes, speed, ETA
    /// of the running ones). Each line is at most `width - 1` columns (the last column is left
    /// free: some terminals wrap when it is written).
    static func lines(files: [File], finished: Int, total: Int, width: Int, maximumFileLines: Int) -> [String] {
        let columns = max(10, width - 1)
        var lines: [String] = []
        let shown = files.prefix(max(0, maximumFileLines))
        for file in shown {
            lines.append(fileLine(file, columns: columns))
        }
        if files.count > shown.count {
            lines.append(DisplayText.truncate("  +\(files.count - shown.count) more", toWidth: columns))
        }
        lines.append(totalLine(files: files, finished: finished, total: total, columns: columns))
        return lines
    }

    /// One file: `name [=====>    ] 42% 1.2 MiB/s 3s`, the name taking what the rest leaves.
    static func fileLine(_ file: File, columns: Int) -> String {
        let progress = file.progress
        let fraction = progress.fractionCompleted
        var tail = " " + (fraction.map(ByteFormatting.percent) ?? ByteFormatting.size(progress.completedBytes))
        tail += " " + ByteFormatting.speed(progress.bytesPerSecond)
        if fraction != nil { tail += " " + ByteFormatting.duration(progress.estimatedSecondsRemaining) }
        var bar = ""
        if columns >= barMinimumWidth {
            bar = " " + self.bar(fraction, width: min(30, columns / 4))
        }
        let nameWidth = columns - DisplayWidth.of(bar) - DisplayWidth.of(tail)
        guard nameWidth >= 4 else {
            // Too narrow for the rest: the name and the percent only.
            return DisplayText.truncate(DisplayText.sanitize(file.name) + tail, toWidth: columns)
        }
        return DisplayText.fit(DisplayText.sanitize(file.name), toWidth: nameWidth) + bar + tail
    }

    /// The total: `[2/5] 12 MiB / 40 MiB 30% 3.4 MiB/s ETA 8s` over the running files and the
    /// finished count.
    static func totalLine(files: [File], finished: Int, total: Int, columns: Int) -> String {
        var done: Int64 = 0
        var expected: Int64 = 0
        var known = true
        var speed = 0.0
        for file in files {
            done += file.progress.completedBytes
            speed += file.progress.bytesPerSecond
            if let bytes = file.progress.expectedBytes { expected += bytes } else { known = false }
        }
        let count = "[\(finished)/\(total)] \(ByteFormatting.size(done))"
        var of = "", percent = "", eta = "", shortETA = ""
        if known, expected > 0 {
            of = " / \(ByteFormatting.size(expected))"
            percent = " \(ByteFormatting.percent(Double(done) / Double(expected)))"
            if speed > 0 {
                shortETA = " \(ByteFormatting.duration(Double(max(0, expected - done)) / speed))"
                eta = " ETA" + shortETA
            }
        }
        let rate = " \(ByteFormatting.speed(speed))"
        // On a narrow terminal the total size goes first, then the word ETA.
        for text in [count + of + percent + rate + eta, count + percent + rate + eta,
                     count + percent + rate + shortETA]
        where DisplayWidth.of(text) <= columns {
            return text
        }
        return DisplayText.truncate(count + percent + rate, toWidth: columns)
    }

    /// `[=====>    ]` of `width` columns; a moving-free empty bar when the size is unknown.
    static func bar(_ fraction: Double?, width: Int) -> String {
        let inner = max(1, width - 2)
        guard let fraction else { return "[" + String(repeating: " ", count: inner) + "]" }
        let filled = Int((min(1, max(0, fraction)) * Double(inner)).rounded(.down))
        if filled >= inner { return "[" + String(repeating: "=", count: inner) + "]" }
        return "[" + String(repeating: "=", count: filled) + ">" + String(repeating: " ", count: inner - filled - 1) + "]"
    }
}
