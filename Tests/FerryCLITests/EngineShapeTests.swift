import Foundation
import Testing

/// The shape the one-engine design keeps: every process that runs transfers runs the one
/// `EngineHost`, the only maker of a `Scheduler` outside the scheduler's own folder.
@Suite struct EngineShapeTests {
    /// `sources` is the package's `Sources` directory (three levels above this file).
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test func onlyTheEngineHostMakesASchedulerOutsideTheSchedulersFolder() throws {
        // Given every Swift source outside Sources/FerryQueue/Scheduler.
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        var makers: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let relative = String(file.path.dropFirst(Self.sources.path.count + 1))
            guard !relative.hasPrefix("FerryQueue/Scheduler/") else { continue }
            // When one calls the scheduler's initializer.
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.contains("Scheduler(journal:") { makers.append(relative) }
        }

        // Then it is the engine host alone.
        #expect(makers.map { ($0 as NSString).lastPathComponent } == ["EngineHost.swift"], "\(makers)")
    }
}
