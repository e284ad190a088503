import Testing

@Test func cliTestsTargetBuilds() {
    #expect(Bool(true))
}
