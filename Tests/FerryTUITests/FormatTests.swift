import Testing
@testable import FerryTUI

@Suite struct FormatTests {
    @Test func bytesUseBinaryUnitsInAtMostEightColumns() {
        #expect(Format.bytes(0) == "0 B")
        #expect(Format.bytes(1023) == "1023 B")
        #expect(Format.bytes(1024) == "1.0 KiB")
        #expect(Format.bytes(1536) == "1.5 KiB")
        #expect(Format.bytes(10 * 1024) == "10 KiB")
        #expect(Format.bytes(1024 * 1024 - 1) == "1023 KiB")
        #expect(Format.bytes(5 * 1024 * 1024 * 1024) == "5.0 GiB")
        #expect(Format.bytes(-5) == "0 B")
        #expect(Format.bytes(Int64.max).count <= 8)
    }

    @Test func speedAppendsPerSecond() {
        #expect(Format.speed(1_572_864) == "1.5 MiB/s")
    }

    @Test func durationsAreCompact() {
        #expect(Format.duration(0) == "0s")
        #expect(Format.duration(59) == "59s")
        #expect(Format.duration(65) == "1m05s")
        #expect(Format.duration(3600 + 180) == "1h03m")
        #expect(Format.duration(2 * 86_400 + 4 * 3600) == "2d04h")
        #expect(Format.duration(1_000 * 86_400) == "99d+")
    }

    @Test func percentRoundsDownSoHundredMeansDone() {
        #expect(Format.percent(0.999) == "99%")
        #expect(Format.percent(1) == "100%")
        #expect(Format.percent(2) == "100%")
    }
}
