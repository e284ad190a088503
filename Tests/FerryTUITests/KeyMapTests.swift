import Testing
@testable import FerryTUI

@Suite struct KeyMapTests {
    let keys = KeyMaps.standard

    @Test func noMapBindsAKeyTwice() {
        #expect(keys.list.duplicateKeys.isEmpty)
        #expect(keys.form.duplicateKeys.isEmpty)
        #expect(keys.edit.duplicateKeys.isEmpty)
        #expect(keys.filter.duplicateKeys.isEmpty)
        #expect(keys.confirm.duplicateKeys.isEmpty)
        #expect(keys.help.duplicateKeys.isEmpty)
        #expect(keys.text.duplicateKeys.isEmpty)
        #expect(keys.purge.duplicateKeys.isEmpty)
    }

    @Test func mapsThatShareKeysNeverShadowEachOther() {
        let edit = Set(keys.edit.bindings.flatMap(\.keys))
        #expect(Set(keys.form.bindings.flatMap(\.keys)).isDisjoint(with: edit))
        #expect(Set(keys.filter.bindings.flatMap(\.keys)).isDisjoint(with: edit))
    }

    @Test func everyActionHasAKey() {
        #expect(Set(keys.list.bindings.map(\.action)) == Set(ListAction.allCases))
        #expect(Set(keys.form.bindings.map(\.action)) == Set(FormAction.allCases))
        #expect(Set(keys.edit.bindings.map(\.action)) == Set(EditAction.allCases))
        #expect(Set(keys.filter.bindings.map(\.action)) == Set(FilterAction.allCases))
        #expect(Set(keys.confirm.bindings.map(\.action)) == Set(ConfirmAction.allCases))
        #expect(Set(keys.help.bindings.map(\.action)) == Set(HelpAction.allCases))
        #expect(Set(keys.text.bindings.map(\.action)) == Set(TextAction.allCases))
        #expect(Set(keys.purge.bindings.map(\.action)) == Set(PurgeAction.allCases))
    }

    @Test func everyKeyDecodesToItsBindingsAction() {
        for binding in keys.list.bindings {
            for key in binding.keys { #expect(keys.list.action(for: key) == binding.action) }
        }
    }

    @Test func hintsComeFromTheBindingsThatHaveThem() {
        let hinted = keys.list.bindings.filter { $0.hint != nil }
        #expect(keys.list.hints == hinted.map { KeyHint(key: $0.keys[0].displayName, label: $0.hint ?? "") })
        #expect(keys.list.hints.map(\.key) == ["a", "u", "Space", "r", "x", "/", "?", "q"])
    }

    @Test func theHintLineShowsExactlyTheKeyMapsHints() {
        let state = Fixtures.state(width: 100, height: 24)
        let hintLine = Fixtures.render(state)[22]
        let expected = " " + keys.list.hints.map { "\($0.key) \($0.label)" }.joined(separator: "  ")
        #expect(hintLine.hasPrefix(expected))
    }

    @Test func helpScreenListsEveryBindingOfEveryMap() {
        let lines = HelpView.lines(keys: keys)
        for section in keys.helpSections {
            #expect(lines.contains { $0.isTitle && $0.text == section.title })
            for entry in section.entries {
                #expect(lines.contains { $0.keys == entry.keys && $0.text == entry.help })
            }
        }
        let bindings = keys.list.bindings.count + keys.form.bindings.count + keys.edit.bindings.count
            + keys.filter.bindings.count + keys.confirm.bindings.count + keys.help.bindings.count
            + keys.text.bindings.count + keys.purge.bindings.count + keys.stop.bindings.count
        #expect(lines.filter { !$0.isTitle && !$0.keys.isEmpty }.count == bindings)
    }

    @Test func everyHintedKeyIsOnTheHelpScreen() {
        let helpKeys = HelpView.lines(keys: keys).map(\.keys)
        for hint in keys.list.hints {
            #expect(helpKeys.contains { $0.split(separator: "/").map(String.init).contains(hint.key) || $0 == hint.key })
        }
    }

    @Test func keyNamesAreReadable() {
        #expect(Key.character(" ").displayName == "Space")
        #expect(Key.control("l").displayName == "^L")
        #expect(Key.pageDown.displayName == "PgDn")
        #expect(Key.function(5).displayName == "F5")
        #expect(keys.list.bindings.first { $0.action == .moveUp }?.keyNames == "↑/k")
    }

    @Test func characterCodesDecode() {
        #expect(Key(characterCode: 9) == .tab)
        #expect(Key(characterCode: 13) == .enter)
        #expect(Key(characterCode: 10) == .enter)
        #expect(Key(characterCode: 27) == .escape)
        #expect(Key(characterCode: 127) == .backspace)
        #expect(Key(characterCode: 8) == .backspace)
        #expect(Key(characterCode: 12) == .control("l"))
        #expect(Key(characterCode: 0x65E5) == .character("日"))
        #expect(Key(characterCode: 0) == nil)
        #expect(Key(characterCode: 0x9B) == nil)
        #expect(Key(characterCode: 0x202E) == nil)
        #expect(Key(characterCode: 0xD800) == nil)
        #expect(Key(characterCode: 0x110000) == nil)
    }
}
