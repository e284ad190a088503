import Testing
@testable import FerryTUI

@Suite struct DisplayWidthTests {
    @Test func asciiAndLatinAreOneColumn() {
        #expect(DisplayWidth.of("hello.txt") == 9)
        #expect(DisplayWidth.of("café") == 4)
    }

    @Test func cjkAndFullwidthAreTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of(Character("\u{20000}")) == 2)
    }

    @Test func emojiArePresentedTwoColumnsWide() {
        #expect(DisplayWidth.of(Character("📷")) == 2)
        #expect(DisplayWidth.of(Character("🇩🇪")) == 2)
        #expect(DisplayWidth.of(Character("👨‍👩‍👧")) == 2)
        #expect(DisplayWidth.of(Character("❤\u{FE0F}")) == 2)
        #expect(DisplayWidth.of(Character("👍🏽")) == 2)
    }

    @Test func combiningMarksAndFormatCharactersAreZero() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200D)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200B)!) == 0)
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)
    }

    @Test func ambiguousWidthCharactersCountAsOne() {
        #expect(DisplayWidth.of("…─━·") == 4)
    }

    @Test func controlCharactersAreZero() {
        #expect(DisplayWidth.of(Unicode.Scalar(0x07)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x85)!) == 0)
    }

    @Test func wideTableIsSortedAndDisjoint() {
        let table = DisplayWidth.wideRanges
        #expect(table.count % 2 == 0)
        for index in stride(from: 0, to: table.count, by: 2) {
            #expect(table[index] <= table[index + 1])
            if index + 2 < table.count { #expect(table[index + 1] < table[index + 2]) }
        }
    }
}
