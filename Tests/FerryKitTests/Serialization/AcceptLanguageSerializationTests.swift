import Testing
@testable import FerryKit

@Suite struct AcceptLanguageSerializationTests {
    @Test func langBecomesALanguageTag() {
        #expect(AcceptLanguage.headerValue(environment: ["LANG": "en_US.UTF-8"]) == "en-US;q=1")
    }

    @Test func languageListGetsDecreasingQValues() {
        let environment = ["LANGUAGE": "fr_CA:fr:en", "LANG": "fr_CA.UTF-8"]
        #expect(AcceptLanguage.headerValue(environment: environment) == "fr-CA;q=1, fr;q=0.9, en;q=0.8")
    }

    @Test func atMostSixLanguagesDownToHalf() {
        let environment = ["LANGUAGE": "a1:b1:c1:d1:e1:f1:g1:h1".replacingOccurrences(of: "1", with: "")]
        #expect(AcceptLanguage.headerValue(environment: environment)
            == "a;q=1, b;q=0.9, c;q=0.8, d;q=0.7, e;q=0.6, f;q=0.5")
    }

    @Test func localePrecedenceIsLCAllThenLCMessagesThenLang() {
        #expect(AcceptLanguage.preferredLanguages(environment: ["LC_ALL": "pt_BR.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "ja_JP"]) == ["pt-BR"])
        #expect(AcceptLanguage.preferredLanguages(environment: ["LC_MESSAGES": "de_DE", "LANG": "ja_JP"]) == ["de-DE"])
    }

    @Test func modifiersAndCodesetsAreDropped() {
        #expect(AcceptLanguage.tag(fromLocaleName: "sr_RS@latin") == "sr-RS")
        #expect(AcceptLanguage.tag(fromLocaleName: "de_DE.ISO-8859-1") == "de-DE")
        #expect(AcceptLanguage.tag(fromLocaleName: "zh_Hant_TW.UTF-8") == "zh-Hant-TW")
    }

    @Test func cAndPOSIXAndGarbageNameNoLanguage() {
        #expect(AcceptLanguage.tag(fromLocaleName: "C") == nil)
        #expect(AcceptLanguage.tag(fromLocaleName: "C.UTF-8") == nil)
        #expect(AcceptLanguage.tag(fromLocaleName: "POSIX") == nil)
        #expect(AcceptLanguage.tag(fromLocaleName: "en US") == nil)
        #expect(AcceptLanguage.tag(fromLocaleName: "") == nil)
    }

    @Test func noLanguageFallsBackToEnglish() {
        #expect(AcceptLanguage.headerValue(environment: [:]) == "en;q=1")
        #expect(AcceptLanguage.headerValue(environment: ["LANG": "C.UTF-8"]) == "en;q=1")
    }

    @Test func duplicatesAreDropped() {
        #expect(AcceptLanguage.preferredLanguages(environment: ["LANGUAGE": "de:de_DE:de::en"]) == ["de", "de-DE", "en"])
    }

    @Test func anUnusableLanguageListFallsBackToTheLocale() {
        #expect(AcceptLanguage.preferredLanguages(environment: ["LANGUAGE": "C", "LANG": "it_IT.UTF-8"]) == ["it-IT"])
    }
}
