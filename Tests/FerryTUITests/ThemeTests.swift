import Testing
@testable import FerryTUI

@Suite struct ThemeTests {
    @Test func noColorWithAValueSelectsMonochrome() {
        #expect(!Theme.choose(noColor: "1", terminalHasColors: true).usesColor)
        #expect(Theme.choose(noColor: "", terminalHasColors: true).usesColor)
        #expect(Theme.choose(noColor: nil, terminalHasColors: true).usesColor)
        #expect(!Theme.choose(noColor: nil, terminalHasColors: false).usesColor)
    }

    @Test func monochromeUsesNoColours() {
        for style in Style.allCases {
            let look = Theme.monochrome.appearance(for: style)
            #expect(look.foreground == nil && look.background == nil)
        }
    }

    @Test func stylesThatMustStandOutDoSoWithoutColour() {
        let plain = Theme.monochrome.appearance(for: .normal)
        for style: Style in [.header, .selection, .columnHeader, .running, .failed, .error, .hintKey, .field, .fieldFocused, .barDone, .barTodo, .dialogError] {
            #expect(Theme.monochrome.appearance(for: style) != plain, "\(style) looks plain")
        }
        #expect(Theme.monochrome.appearance(for: .field) != Theme.monochrome.appearance(for: .fieldFocused))
        #expect(Theme.monochrome.appearance(for: .barDone) != Theme.monochrome.appearance(for: .barTodo))
    }

    @Test func colourThemeSeparatesSelectionFromHeader() {
        #expect(Theme.color.appearance(for: .selection) != Theme.color.appearance(for: .header))
        #expect(Theme.color.appearance(for: .failed).foreground == .red)
    }
}
