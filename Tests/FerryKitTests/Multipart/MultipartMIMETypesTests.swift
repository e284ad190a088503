import Foundation
import Testing
@testable import FerryKit

@Suite("Multipart: MIME types")
struct MultipartMIMETypesTests {
    /// `Resources/mime.types` in this checkout, found from this file's path.
    static let sourceURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Multipart
        .deletingLastPathComponent() // FerryKitTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // package root
        .appendingPathComponent("Resources/mime.types")

    @Test func embeddedTableEqualsResourcesFile() throws {
        // Given the table's source of truth
        let source = try String(contentsOf: Self.sourceURL, encoding: .utf8)

        // Then the copy compiled into the binary is the same text, so it parses the same
        #expect(MIMETypes.embeddedSource == source, "run Resources/generate-mime-table.sh after editing Resources/mime.types")
        let parsed = MIMETypes.parse(source)
        let differing = Set(parsed.keys).union(MIMETypes.table.keys).filter { parsed[$0] != MIMETypes.table[$0] }
        #expect(differing.isEmpty, "extensions that differ: \(differing.sorted())")
        #expect(MIMETypes.table.count > 200)
    }

    @Test func everyExtensionIsListedOnceInLowerCase() throws {
        let source = try String(contentsOf: Self.sourceURL, encoding: .utf8)
        var owners: [String: String] = [:]
        var duplicates: [String] = []
        for line in source.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let type = fields.first else { continue }
            #expect(type.contains("/"), "\(type) is not a media type")
            for pathExtension in fields.dropFirst() {
                #expect(pathExtension == pathExtension.lowercased() && !pathExtension.contains("."), "\(pathExtension)")
                if let owner = owners[pathExtension] { duplicates.append("\(pathExtension): \(owner) and \(type)") }
                owners[pathExtension] = type
            }
        }
        #expect(duplicates.isEmpty, "\(duplicates)")
    }

    @Test(arguments: [
        ("photo.jpg", "image/jpeg"),
        ("PHOTO.JPEG", "image/jpeg"),
        ("report.pdf", "application/pdf"),
        ("archive.tar.gz", "application/gzip"),
        ("notes.txt", "text/plain"),
        ("data.json", "application/json"),
        ("movie.mp4", "video/mp4"),
        ("dir.d/picture.png", "image/png"),
        ("sheet.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("noextension", "application/octet-stream"),
        (".bashrc", "application/octet-stream"),
        ("trailingdot.", "application/octet-stream"),
        ("unknown.qqqzz", "application/octet-stream"),
    ])
    func typeForFileName(fileName: String, expected: String) {
        #expect(MIMETypes.type(forFileName: fileName) == expected)
    }

    @Test func parseReadsDebianFormat() {
        // Given comments, tabs, spaces, a type without extensions and an extension listed twice
        let text = "# comment\n\ntext/plain\t\ttxt TEXT\nimage/x-none\napplication/x-first  dup\napplication/x-second\tdup other\n"

        // When parsed
        let table = MIMETypes.parse(text)

        // Then extensions are lower-cased and the first listing wins
        #expect(table == ["txt": "text/plain", "text": "text/plain", "dup": "application/x-first", "other": "application/x-second"])
    }
}
