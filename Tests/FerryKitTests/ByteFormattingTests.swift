import FerryKit
import Testing

/// The one number format of the command line and the terminal UI.
@Suite struct ByteFormattingTests {
    @Test func sizesUseBinaryUnitsInAtMostEightColumns() {
        #expect(ByteFormatting.size(0) == "0 B")
        #expect(ByteFormatting.size(1023) == "1023 B")
        #expect(ByteFormatting.size(1024) == "1.0 KiB")
        #expect(ByteFormatting.size(1536) == "1.5 KiB")
        #expect(ByteFormatting.size(10 * 1024) == "10 KiB")
        #expect(ByteFormatting.size(1024 * 1024 - 1) == "1023 KiB")
        #expect(ByteFormatting.size(3 * 1_048_576) == "3.0 MiB")
        #expect(ByteFormatting.size(64 * 1_048_576) == "64 MiB")
        #expect(ByteFormatting.size(1_073_741_824) == "1.0 GiB")
        #expect(ByteFormatting.size(5 * 1024 * 1024 * 1024) == "5.0 GiB")
        #expect(ByteFormatting.size(-5) == "0 B")
        #expect(ByteFormatting.size(Int64.max).count <= 8)
    }

    @Test func speedsAppendPerSecond() {
        #expect(ByteFormatting.speed(1_572_864) == "1.5 MiB/s")
        #expect(ByteFormatting.speed(-1) == "0 B/s")
        #expect(ByteFormatting.speed(.infinity) == "0 B/s")
        #expect(ByteFormatting.speed(1e300).count <= 10)
    }

    @Test func durationsFitInSixColumns() {
        #expect(ByteFormatting.duration(0) == "0s")
        #expect(ByteFormatting.duration(7) == "7s")
        #expect(ByteFormatting.duration(58.2) == "59s")
        #expect(ByteFormatting.duration(59) == "59s")
        #expect(ByteFormatting.duration(65) == "1m05s")
        #expect(ByteFormatting.duration(3600 + 180) == "1h03m")
        #expect(ByteFormatting.duration(2 * 86_400 + 4 * 3600) == "2d04h")
        #expect(ByteFormatting.duration(1_000 * 86_400) == "99d+")
        #expect(ByteFormatting.duration(1e300) == "99d+")
        #expect(ByteFormatting.duration(nil) == "--")
        #expect(ByteFormatting.duration(-1) == "--")
        #expect(ByteFormatting.duration(.nan) == "--")
    }

    @Test func percentagesRoundDownSoHundredMeansComplete() {
        #expect(ByteFormatting.percent(0.999) == "99%")
        #expect(ByteFormatting.percent(1) == "100%")
        #expect(ByteFormatting.percent(2) == "100%")
        #expect(ByteFormatting.percent(-1) == "0%")
    }
}
