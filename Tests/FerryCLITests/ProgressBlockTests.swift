import FerryKit
import FerryTUI
import Testing
@testable import ferry

/// The progress block of `ferry get`: every line fits the width it is drawn at (nothing wraps,
/// so it can be redrawn in place), CJK names included, and more files than fit become "+N more".
@Suite struct ProgressBlockTests {
    private func file(_ name: String, _ done: Int64, of total: Int64?, speed: Double = 300 * 1024) -> ProgressBlock.File {
        ProgressBlock.File(name: name, progress: TransferProgress(receivedBytes: done, expectedReceivedBytes: total, bytesPerSecond: speed))
    }

    @Test(arguments: [20, 30, 40, 49, 50, 80, 120, 200])
    func everyLineFitsTheWidth(width: Int) {
        let files = [file("alpha.bin", 1_000_000, of: 3_000_000),
                     file("日本語の名前のファイル.iso", 900_000, of: 3_000_000),
                     file(String(repeating: "long-name-", count: 30) + ".tar.gz", 5_000, of: nil),
                     file("zero.txt", 0, of: 0, speed: 0)]
        let lines = ProgressBlock.lines(files: files, finished: 2, total: 9, width: width, maximumFileLines: 8)
        #expect(lines.count == 5)
        for line in lines {
            #expect(DisplayWidth.of(line) <= width - 1, "\(line)")
        }
        #expect(lines[0].hasPrefix("alpha.bin"))
        #expect(lines[0].contains("33%"))
        #expect(lines.last?.hasPrefix("[2/9]") == true)
    }

    @Test func aWideTerminalShowsBarsSizesAndETA() {
        let lines = ProgressBlock.lines(files: [file("alpha.bin", 1_500_000, of: 3_000_000)], finished: 0, total: 1,
                                        width: 100, maximumFileLines: 8)
        #expect(lines[0].contains("[") && lines[0].contains("=>"))
        #expect(lines[0].contains("50%") && lines[0].contains("300 KiB/s") && lines[0].hasSuffix("5s"))
        #expect(lines[1] == "[0/1] 1.4 MiB / 2.9 MiB 50% 300 KiB/s ETA 5s")
    }

    @Test func moreFilesThanRowsBecomeACount() {
        let files = (0..<12).map { file("f\($0)", 10, of: 100) }
        let lines = ProgressBlock.lines(files: files, finished: 0, total: 12, width: 60, maximumFileLines: 4)
        #expect(lines.count == 6)
        #expect(lines[4] == "  +8 more")
    }

    @Test func theBarIsFullOnlyWhenDone() {
        #expect(ProgressBlock.bar(0, width: 7) == "[>    ]")
        #expect(ProgressBlock.bar(0.5, width: 7) == "[==>  ]")
        #expect(ProgressBlock.bar(1, width: 7) == "[=====]")
        #expect(ProgressBlock.bar(nil, width: 7) == "[     ]")
    }
}
