import Testing
@testable import FerryTUI

@Suite struct WidgetTests {
    static let mixedNames = [
        Fixtures.row(1, "日本語のファイル名.zip", .queued, total: 1000),
        Fixtures.row(2, "photos 📷📷📷.tar", .running, done: 512, total: 2048, speed: 2048, eta: 65),
        Fixtures.row(3, "evil\u{202E}gpj.exe\n", .failed, done: 10, total: 100),
        Fixtures.row(4, "e\u{301}te\u{301}", .cancelled),
    ]

    @Test func minimumScreenShowsTheWholeLayout() {
        let state = Fixtures.state(width: 40, height: 8, rows: Self.mixedNames)
        #expect(Fixtures.render(state) == [
            " Ferry  1 running… ⇣ 2.0 KiB/s  ⇡ 0 B/s ",
            "  Name              Size Done      Speed",
            "◌ 日本語のファ…   1000 B   0%           ",
            "⇣ photos 📷📷…   2.0 KiB  25%  2.0 KiB/s",
            "✗ evil\u{FFFD}gpj.exe\u{FFFD}    100 B  10%           ",
            "⊘ e\u{301}te\u{301}                  ?                ",
            " a Add  u Upload  Space Pause  r Retry  ",
            "                                        ",
        ])
    }

    @Test func widerScreenAddsEtaAndTheDetailPane() {
        var state = Fixtures.state(width: 50, height: 20, rows: Self.mixedNames)
        Fixtures.press([.down], in: &state)
        let lines = Fixtures.render(state)
        #expect(lines[1] == "  Name                 Size Done      Speed    ETA")
        #expect(lines[3] == "⇣ photos 📷📷📷.t…  2.0 KiB  25%  2.0 KiB/s  1m05s")
        #expect(lines[9] == "─ Details ────────────────────────────────────────")
        #expect(lines[10] == " Name       photos 📷📷📷.tar                     ")
        #expect(lines[14] == " Bytes      512 B of 2.0 KiB (25%)                ")
    }

    @Test func everyRowIsExactlyTheScreenWidth() {
        for width in [40, 41, 57, 80, 133] {
            let state = Fixtures.state(width: width, height: 20, rows: Self.mixedNames)
            for line in Fixtures.render(state) { #expect(DisplayWidth.of(line) == width) }
        }
    }

    @Test func namesWithControlOrBidiCharactersNeverReachTheGrid() {
        var state = Fixtures.state(width: 80, height: 24, rows: Self.mixedNames)
        Fixtures.press([.down, .down], in: &state)
        let grid = Renderer.render(state.state)
        for y in 0..<grid.height {
            for x in 0..<grid.width {
                #expect(!grid[x, y].character.unicodeScalars.contains(where: DisplayText.isUnsafe))
            }
        }
        #expect(grid.lines().contains { $0.hasPrefix(" Name       evil\u{FFFD}gpj.exe\u{FFFD}") })
    }

    @Test func selectedRowIsHighlightedAcrossTheWholeWidth() {
        var state = Fixtures.state(width: 40, height: 8, rows: Self.mixedNames)
        Fixtures.press([.down], in: &state)
        let grid = Renderer.render(state.state)
        for x in 0..<40 {
            #expect(grid[x, 3].style == .selection)
            #expect(grid[x, 2].style != .selection)
        }
        #expect(grid[0, 2].style == .queued)
        #expect(grid[0, 4].style == .failed)
    }

    @Test func tooSmallScreensShowAShortNote() {
        let state = Fixtures.state(width: 30, height: 5, rows: Self.mixedNames)
        #expect(Fixtures.render(state) == [
            "                              ",
            "Terminal too small: 30x5, need",
            "             40x8             ",
            "                              ",
            "                              ",
        ])
        #expect(Fixtures.render(Fixtures.state(width: 8, height: 1)) == ["Terminal"])
        #expect(Fixtures.render(Fixtures.state(width: 5, height: 2)) == ["Term…", " too "])
    }

    @Test(arguments: [(0, 0), (1, 1), (0, 7), (7, 0), (2, 1), (39, 8), (40, 7), (40, 8), (200, 3)])
    func anySizeRendersInEveryModeWithoutCrashing(_ width: Int, _ height: Int) {
        let modes: [[Key]] = [[], [.character("a")], [.character("u")], [.character("x")], [.character("?")], [.character("/")]]
        for keys in modes {
            var state = Fixtures.state(width: width, height: height, rows: Self.mixedNames)
            Fixtures.press(keys + Fixtures.type("https://example.com/日本"), in: &state)
            let grid = Renderer.render(state.state)
            #expect(grid.size == Size(width: width, height: height))
            #expect(grid.lines().count == height)
            if let cursor = grid.cursor {
                #expect(cursor.x >= 0 && cursor.x < width && cursor.y >= 0 && cursor.y < height)
            }
        }
    }

    @Test func detailPaneShowsAnUploadsReplyErrorAndValidators() {
        let row = TaskRow(
            id: 9, kind: .upload, name: "form.bin", state: .failed, bytesDone: 100, bytesTotal: 400,
            urls: ["https://***@up.example/form"], destination: "/a.bin, /b.bin", attempts: 3,
            lastError: "HTTP 500 Internal\nServer Error",
            validators: TaskValidators(etag: "\"abc\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", checksum: "sha256=00"),
            reply: "500 {\"error\":\"boom\"}")
        var grid = Grid(size: Size(width: 44, height: 12))
        DetailView(task: row).render(into: &grid, area: grid.bounds)
        #expect(grid.lines() == [
            "─ Details ──────────────────────────────────",
            " Name       form.bin                        ",
            " State      failed · 3 attempts             ",
            " URL        https://***@up.example/form     ",
            " Files      /a.bin, /b.bin                  ",
            " Bytes      100 B of 400 B (25%)            ",
            " Last error HTTP 500 Internal\u{FFFD}Server Error  ",
            " Reply      500 {\"error\":\"boom\"}            ",
            " ETag       \"abc\"                           ",
            " Modified   Mon, 01 Jan 2024 00:00:00 GMT   ",
            " Checksum   sha256=00                       ",
            "                                            ",
        ])
        #expect(grid[12, 6].style == .error)
        #expect(grid[1, 1].style == .label)
    }

    @Test func detailPaneWithoutTaskSaysSo() {
        var grid = Grid(size: Size(width: 20, height: 3))
        DetailView(task: nil).render(into: &grid, area: grid.bounds)
        #expect(grid.lines() == ["─ Details ──────────", " No task selected   ", "                    "])
    }

    @Test func addDialogScrollsALongUrlAndPlacesTheCursor() {
        var state = Fixtures.state(width: 60, height: 16, rows: [Fixtures.row(1, "form.bin")])
        Fixtures.press([.character("a")] + Fixtures.type("https://example.com/a/very/long/path/to/some/file.iso"), in: &state)
        let grid = Renderer.render(state.state)
        let lines = grid.lines()
        // Six fields (Split is -x, Speed cap --limit-rate): the dialog grows a line down from five.
        #expect(lines[3] == "┌─ Add download ───────────────────────────────────────────┐")
        #expect(lines[4] == "│ URL       …xample.com/a/very/long/path/to/some/file.iso  │")
        #expect(lines[5] == "│ Directory /dl                                            │")
        #expect(lines[6] == "│ Name      optional, from the URL                         │")
        #expect(lines[7] == "│ Checksum  optional, sha256=HEX                           │")
        #expect(lines[8] == "│ Split     1 connection, up to 16 for a capped server     │")
        #expect(lines[9] == "│ Speed cap optional, e.g. 500K or 2M                      │")
        #expect(lines[11] == "│ Tab Next  Enter OK  Esc Cancel                           │")
        #expect(lines[12] == "└──────────────────────────────────────────────────────────┘")
        #expect(grid.cursor == Point(x: 57, y: 4))
        #expect(grid[12, 4].style == .fieldFocused)
        #expect(grid[12, 5].style == .field)
        #expect(grid[12, 6].style == .fieldPlaceholder)
        Fixtures.press([.home], in: &state)
        let home = Renderer.render(state.state)
        #expect(home.lines()[4] == "│ URL       https://example.com/a/very/long/path/to/some/… │")
        #expect(home.cursor == Point(x: 12, y: 4))
    }

    @Test func confirmationForAnUploadOffersNoFileDeletion() {
        var state = Fixtures.state(width: 60, height: 16, rows: [Fixtures.row(9, "form.bin", kind: .upload)])
        Fixtures.press([.character("x")], in: &state)
        let lines = Fixtures.render(state)
        #expect(lines[5] == "┌─ Remove task ────────────────────────────────────────────┐")
        #expect(lines[6] == "│ Remove “form.bin”?                                       │")
        #expect(lines[7] == "│ Local files are never deleted.                           │")
        #expect(lines[9] == "│ y Remove  n Cancel                                       │")
        #expect(lines[14] == " y Remove  n Cancel                                         ")
    }

    @Test func confirmationForADownloadOffersFileDeletion() {
        var state = Fixtures.state(width: 60, height: 16, rows: [Fixtures.row(9, "日本語.iso")])
        Fixtures.press([.character("x")], in: &state)
        let lines = Fixtures.render(state)
        #expect(lines[6] == "│ Remove “日本語.iso”?                                     │")
        #expect(lines[9] == "│ y Remove  d Remove+delete file  n Cancel                 │")
    }

    @Test func helpScreenStartsWithTheTaskListSection() {
        var state = Fixtures.state(width: 50, height: 10)
        Fixtures.press([.character("?")], in: &state)
        #expect(Fixtures.render(state) == [
            "┌─ Help ─────────────────────────────────────────┐",
            "│ Task list                                      │",
            "│  ↑/k             Select the previous task      │",
            "│  ↓/j             Select the next task          │",
            "│  PgUp            Select one page up            │",
            "│  PgDn            Select one page down          │",
            "│  g/Home          Select the first task         │",
            "│  G/End           Select the last task          │",
            "│ ↓ Scroll  Esc Close                            │",
            "└────────────────────────────────────────────────┘",
        ])
    }

    @Test func filterPromptShowsTheTextCursorAndCount() {
        var state = Fixtures.state(width: 40, height: 8, rows: [Fixtures.row(1, "alpha"), Fixtures.row(2, "beta")])
        Fixtures.press([.character("/")] + Fixtures.type("alp"), in: &state)
        let grid = Renderer.render(state.state)
        let lines = grid.lines()
        #expect(lines[1] == "  Name /alp 1/2     Size Done      Speed")
        #expect(lines[2].hasPrefix("◌ alpha"))
        #expect(lines[3].trimmingSpaces().isEmpty)
        #expect(lines[6] == " Enter Keep  Esc Clear                  ")
        #expect(lines[7] == "Filter: alp                             ")
        #expect(grid.cursor == Point(x: 11, y: 7))
    }

    @Test func emptyListExplainsHowToAddTasks() {
        let lines = Fixtures.render(Fixtures.state(width: 70, height: 10))
        #expect(lines[0].hasPrefix(" Ferry  no tasks"))
        #expect(lines[3] == "  No tasks. Press a to add a download or u to add an upload.          ")
    }

    @Test func headerCountsStatesAndSumsSpeedsByDirection() {
        var grid = Grid(size: Size(width: 70, height: 1))
        let stats = TaskStats(rows: [
            Fixtures.row(1, "a", .running, speed: 1024), Fixtures.row(2, "b", .running, kind: .upload, speed: 3 * 1024 * 1024),
            Fixtures.row(3, "c", .failed), Fixtures.row(4, "d", .done), Fixtures.row(5, "e", .done),
        ])
        HeaderView(stats: stats).render(into: &grid, area: grid.bounds)
        #expect(grid.lines() == [" Ferry  2 running · 1 failed · 2 done        ⇣ 1.0 KiB/s  ⇡ 3.0 MiB/s "])
        #expect(grid[1, 0].style == .title)
        #expect(grid[20, 0].style == .header)
    }

    @Test func messageLineShowsErrorsInTheErrorStyle() {
        var state = Fixtures.state(width: 40, height: 8)
        _ = state.update(.message(StatusMessage("Disk full\u{7}", isError: true)))
        let grid = Renderer.render(state.state)
        #expect(grid.lines()[7] == " Disk full\u{FFFD}                             ")
        #expect(grid[1, 7].style == .error)
    }

    @Test func hintBarDropsWholeHintsThatDoNotFit() {
        var grid = Grid(size: Size(width: 18, height: 1))
        HintBar([KeyHint(key: "a", label: "Add"), KeyHint(key: "u", label: "Upload"), KeyHint(key: "q", label: "Quit")])
            .render(into: &grid, area: grid.bounds)
        #expect(grid.lines() == [" a Add  u Upload  "])
    }
}
