import Testing
@testable import FerryTUI

@Suite struct GridTests {
    @Test func emptyAndTinyGridsAcceptWrites() {
        var empty = Grid(size: Size(width: 0, height: 0))
        empty.put("abc", x: 0, y: 0, style: .normal)
        empty.fill(Rect(x: -1, y: -1, width: 5, height: 5), style: .header)
        #expect(empty.lines() == [])
        var one = Grid(size: Size(width: 1, height: 1))
        one.put("日本", x: 0, y: 0, style: .normal)
        #expect(one.lines() == [" "])
        one.put("ab", x: 0, y: 0, style: .normal)
        #expect(one.lines() == ["a"])
    }

    @Test func negativeSizesBecomeEmpty() {
        let grid = Grid(size: Size(width: -3, height: 2))
        #expect(grid.lines() == ["", ""])
    }

    @Test func wideCharactersTakeTwoCellsAndAreNeverSplit() {
        var grid = Grid(size: Size(width: 5, height: 1))
        let advanced = grid.put("日本語", x: 0, y: 0, style: .normal)
        #expect(advanced == 5)
        #expect(grid.lines() == ["日本 "])
        #expect(grid[0, 0].width == 2)
        #expect(grid[1, 0].isContinuation)
    }

    @Test func limitClipsOnAColumnBoundary() {
        var grid = Grid(size: Size(width: 6, height: 1))
        grid.put("日本語", x: 0, y: 0, limit: 3, style: .normal)
        #expect(grid.lines() == ["日    "])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = Grid(size: Size(width: 4, height: 1))
        grid.put("日本", x: 0, y: 0, style: .normal)
        grid.put("x", x: 1, y: 0, style: .normal)
        #expect(grid.lines() == [" x本"])
        grid.put("y", x: 2, y: 0, style: .normal)
        #expect(grid.lines() == [" xy "])
    }

    @Test func writingAWideCharacterOverAnotherKeepsTheRowConsistent() {
        var grid = Grid(size: Size(width: 4, height: 1))
        grid.put("日本", x: 0, y: 0, style: .normal)
        grid.put("語", x: 1, y: 0, style: .normal)
        #expect(grid.lines() == [" 語 "])
        #expect(grid[3, 0].width == 1)
    }

    @Test func textStartingLeftOfTheGridIsClipped() {
        var grid = Grid(size: Size(width: 3, height: 1))
        grid.put("日本", x: -1, y: 0, style: .normal)
        #expect(grid.lines() == [" 本"])
    }

    @Test func unsafeCharactersNeverReachTheGrid() {
        var grid = Grid(size: Size(width: 6, height: 1))
        grid.put("a\u{1B}b\u{202E}c", x: 0, y: 0, style: .normal)
        #expect(grid.lines() == ["a\u{FFFD}b\u{FFFD}c "])
    }

    @Test func zeroWidthClustersAreDropped() {
        var grid = Grid(size: Size(width: 3, height: 1))
        grid.put("a\u{200B}b", x: 0, y: 0, style: .normal)
        #expect(grid.lines() == ["ab "])
    }

    @Test func restyleKeepsText() {
        var grid = Grid(size: Size(width: 3, height: 1))
        grid.put("abc", x: 0, y: 0, style: .normal)
        grid.restyle(Rect(x: 1, y: 0, width: 5, height: 1), style: .selection)
        #expect(grid.lines() == ["abc"])
        #expect(grid[0, 0].style == .normal)
        #expect(grid[2, 0].style == .selection)
    }
}
