import Foundation
import Testing
@testable import FerryKit

@Suite struct ImageResponseSerializationTests {
    typealias Fixtures = SerializationFixtures

    // Hand-made headers: only the bytes the formats define, nothing decoded.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
        + Array("IHDR".utf8) + [0x00, 0x00, 0x02, 0x80, 0x00, 0x00, 0x01, 0xE0, 0x08, 0x02, 0x00, 0x00, 0x00, 0xDE, 0xAD, 0xBE, 0xEF])
    static let gif = Data(Array("GIF89a".utf8) + [0x03, 0x00, 0x05, 0x00, 0xF7, 0x00, 0x00])
    static let jpeg = Data([
        0xFF, 0xD8,
        0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
        0xFF, 0xDB, 0x00, 0x04, 0x00, 0x00,
        0xFF, 0xC4, 0x00, 0x05, 0x00, 0xC8, 0x01,
        0xFF, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0xC8, 0x01, 0x2C, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
        0xFF, 0xDA, 0x00, 0x08,
    ])
    static let webPLossy = riff("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x90, 0x01, 0x2C, 0x01])
    static let webPLossless = riff("VP8L", [0x2F, 0x63, 0x40, 0x0C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
    static let webPExtended = riff("VP8X", [0x00, 0x00, 0x00, 0x00, 0xFF, 0x03, 0x00, 0xFF, 0x02, 0x00])

    static func riff(_ chunk: String, _ payload: [UInt8]) -> Data {
        let chunkSize = UInt32(payload.count)
        let riffSize = UInt32(4 + 8 + payload.count)
        return Data(Array("RIFF".utf8) + withUnsafeBytes(of: riffSize.littleEndian, Array.init) + Array("WEBP".utf8)
            + Array(chunk.utf8) + withUnsafeBytes(of: chunkSize.littleEndian, Array.init) + payload)
    }

    private func info(_ data: Data, contentType: String) throws -> ImageInfo {
        try ImageResponseSerializer().serialize(response: Fixtures.response(contentType: contentType), data: data)
    }

    @Test func pngSizeComesFromIHDR() throws {
        #expect(try info(Self.png, contentType: "image/png").description == "PNG 640x480")
    }

    @Test func gifSizeComesFromTheLogicalScreen() throws {
        #expect(try info(Self.gif, contentType: "image/gif") == ImageInfo(format: .gif, width: 3, height: 5))
    }

    @Test func jpegSizeComesFromTheFirstFrameHeaderSkippingOtherSegments() throws {
        #expect(try info(Self.jpeg, contentType: "image/jpeg").description == "JPEG 300x200")
    }

    @Test func progressiveJPEGFramesAreRead() throws {
        var progressive = Self.jpeg
        let sof = try #require(progressive.firstRange(of: Data([0xFF, 0xC0])))
        progressive[sof.lowerBound + 1] = 0xC2
        #expect(try ImageInfo(data: progressive).description == "JPEG 300x200")
    }

    @Test func aJPEGWithoutFrameHeaderIsAnError() throws {
        let noFrame = Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x00])
        #expect(throws: FerryError.serialization(.invalidImage("the JPEG has no frame header before its image data"))) {
            try ImageInfo(data: noFrame)
        }
        #expect(throws: FerryError.serialization(.invalidImage("the JPEG header is truncated"))) {
            try ImageInfo(data: Self.jpeg.prefix(30))
        }
    }

    @Test func webPSizesComeFromVP8VP8LAndVP8X() throws {
        #expect(try info(Self.webPLossy, contentType: "image/webp").description == "WebP 400x300")
        #expect(try info(Self.webPLossless, contentType: "image/webp").description == "WebP 100x50")
        #expect(try info(Self.webPExtended, contentType: "image/webp").description == "WebP 1024x768")
    }

    @Test func truncatedHeadersAreErrors() throws {
        for (data, format) in [(Self.png, "PNG"), (Self.gif, "GIF"), (Self.webPLossy, "WebP")] {
            #expect(throws: FerryError.serialization(.invalidImage("the \(format) header is truncated"))) {
                try ImageInfo(data: data.prefix(data.count == Self.gif.count ? 9 : 20))
            }
        }
    }

    @Test func unknownFormatsAndEmptyBodiesAreErrors() throws {
        #expect(throws: FerryError.serialization(.invalidImage("not a PNG, JPEG, GIF or WebP image"))) {
            try info(Data("BM not really".utf8), contentType: "image/png")
        }
        #expect(throws: FerryError.serialization(.invalidImage("the body is empty"))) {
            try info(Data(), contentType: "image/png")
        }
    }

    @Test func aZeroSizeIsAnError() throws {
        var zero = Self.png
        zero.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        #expect(throws: FerryError.serialization(.invalidImage("the PNG header gives a size of 0x480"))) {
            try ImageInfo(data: zero)
        }
    }

    @Test func nonImageContentTypesAreRejected() throws {
        #expect(throws: FerryError.self) {
            try info(Self.png, contentType: "text/html")
        }
    }
}
