import Foundation
import Testing
@testable import FerryKit

@Suite("Multipart: -F syntax")
struct MultipartFormFieldSpecTests {
    @Test(arguments: [
        ("name=value", FormFieldSpec(name: "name", content: .text("value"))),
        ("name=", FormFieldSpec(name: "name", content: .text(""))),
        ("a=b=c", FormFieldSpec(name: "a", content: .text("b=c"))),
        ("a= spaced out ", FormFieldSpec(name: "a", content: .text("spaced out"))),
        ("a=\" kept \"", FormFieldSpec(name: "a", content: .text(" kept "))),
        ("a=\"x;y\"", FormFieldSpec(name: "a", content: .text("x;y"))),
        ("a=\"say \\\"hi\\\" \\\\ \\n\"", FormFieldSpec(name: "a", content: .text("say \"hi\" \\ \\n"))),
        ("a=\"@not-a-file\"", FormFieldSpec(name: "a", content: .text("@not-a-file"))),
        ("a=v;type=text/foo", FormFieldSpec(name: "a", content: .text("v"), mimeType: "text/foo")),
        ("a=v; type=text/foo ;filename=n.txt", FormFieldSpec(name: "a", content: .text("v"), mimeType: "text/foo", fileName: "n.txt")),
        ("a=v;", FormFieldSpec(name: "a", content: .text("v"))),
        ("file=@photo.jpg", FormFieldSpec(name: "file", content: .file(path: "photo.jpg"))),
        ("file=@/tmp/a b.txt;type=text/plain", FormFieldSpec(name: "file", content: .file(path: "/tmp/a b.txt"), mimeType: "text/plain")),
        ("file=@x.bin;filename=\"re;mote\\\".bin\"", FormFieldSpec(name: "file", content: .file(path: "x.bin"), fileName: "re;mote\".bin")),
        ("file=@\"semi;colon.txt\";TYPE=a/b", FormFieldSpec(name: "file", content: .file(path: "semi;colon.txt"), mimeType: "a/b")),
        ("file=@x;filename=", FormFieldSpec(name: "file", content: .file(path: "x"), fileName: "")),
        ("file=@x; type = a/b", FormFieldSpec(name: "file", content: .file(path: "x"), mimeType: "a/b")),
        ("body=<message.txt", FormFieldSpec(name: "body", content: .fileContents(path: "message.txt"))),
        ("body=<message.txt;type=text/plain", FormFieldSpec(name: "body", content: .fileContents(path: "message.txt"), mimeType: "text/plain")),
        ("\u{540D}=\u{5024}", FormFieldSpec(name: "\u{540D}", content: .text("\u{5024}"))),
        ("a\"b=v", FormFieldSpec(name: "a\"b", content: .text("v"))),
    ])
    func parsesCurlSyntax(argument: String, expected: FormFieldSpec) throws {
        #expect(try FormFieldSpec.parse(argument) == expected)
    }

    @Test(arguments: [
        ("novalue", "has no '='"),
        ("=value", "has an empty name"),
        ("a=@", "has no file name after '@'"),
        ("a=<", "has no file name after '<'"),
        ("a=@\"\"", "has no file name after '@'"),
        ("a=x;y", "has an unknown parameter \"y\""),
        ("a=x;headers=X: y", "has an unknown parameter \"headers\""),
        ("a=@f;type", "has an unknown parameter \"type\""),
        ("a=@f;type=a/b;type=c/d", "gives type= twice"),
        ("a=@f;type=", "has an empty type="),
        ("a=\"unterminated", "has an unterminated quote"),
        ("a=\"x\" y", "has text after a closing quote"),
        ("a=@f;filename=\"n\"x", "has text after a closing quote"),
        ("a=v;type=\"text/plain\r\nX: y\"", "has a type= with a line break or NUL"),
    ])
    func rejectsBadSyntax(argument: String, reason: String) {
        do throws(FerryError) {
            let spec = try FormFieldSpec.parse(argument)
            Issue.record("parsed \(argument) as \(spec)")
        } catch {
            guard case .input(.invalidOption(let message)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(message.contains(reason), "\(message)")
            #expect(message.hasPrefix("form field \""))
        }
    }

    @Test func appendedSpecsProduceCurlsParts() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a file to upload and a file whose contents are a field's value
        let photo = try MultipartFixtures.makeFile("photo.jpg", in: directory, contents: Data([0xFF, 0xD8, 0xFF]))
        let message = try MultipartFixtures.makeFile("message.txt", in: directory, contents: Data("from a file".utf8))
        var form = try MultipartFixtures.form()

        // When the specs are appended
        for argument in [
            "title=Holiday",
            "photo=@\(photo.path)",
            "renamed=@\(photo.path);filename=pic.png",
            "typed=@\(photo.path);type=image/x-custom",
            "body=<\(message.path)",
            "note=hello;type=text/x-note",
        ] {
            try form.append(FormFieldSpec.parse(argument))
        }
        let body = try MultipartFixtures.readAll(form.makeBodyStream(), chunk: 4096)

        // Then each part is what curl sends for it
        let separator = "\r\n--Boundary+0123456789ABCDEF\r\n"
        var expected = Data("--Boundary+0123456789ABCDEF\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday".utf8)
        expected += Data((separator + "Content-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").utf8)
        expected += Data([0xFF, 0xD8, 0xFF])
        expected += Data((separator + "Content-Disposition: form-data; name=\"renamed\"; filename=\"pic.png\"\r\nContent-Type: image/png\r\n\r\n").utf8)
        expected += Data([0xFF, 0xD8, 0xFF])
        expected += Data((separator + "Content-Disposition: form-data; name=\"typed\"; filename=\"photo.jpg\"\r\nContent-Type: image/x-custom\r\n\r\n").utf8)
        expected += Data([0xFF, 0xD8, 0xFF])
        expected += Data((separator + "Content-Disposition: form-data; name=\"body\"\r\n\r\nfrom a file").utf8)
        expected += Data((separator + "Content-Disposition: form-data; name=\"note\"\r\nContent-Type: text/x-note\r\n\r\nhello").utf8)
        expected += Data("\r\n--Boundary+0123456789ABCDEF--\r\n".utf8)
        #expect(body == expected)
    }

    @Test func appendingASpecForAMissingFileFails() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        var form = try MultipartFixtures.form()
        let missing = directory.appendingPathComponent("nope.txt").path
        #expect(throws: FerryError.input(.missingFile(missing))) { try form.append(FormFieldSpec.parse("f=@\(missing)")) }
        #expect(throws: FerryError.input(.missingFile(missing))) { try form.append(FormFieldSpec.parse("f=<\(missing)")) }
        #expect(form.isEmpty)
    }
}
