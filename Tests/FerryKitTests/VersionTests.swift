import Testing
@testable import FerryKit

@Test func userAgentNamesTheVersion() {
    #expect(FerryVersion.userAgent == "ferry/\(FerryVersion.string)")
}
