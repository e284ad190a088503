import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// The pure parts of a resumable upload: the protocols' header fields, a file's identity, a
/// body resumed at an offset, and resume data kept as JSON.
struct UploadResumePartsTests {
    @Test func theIETFFieldsFollowTheInteropVersion() {
        let three = UploadProtocolHeaders.ietf(version: 3, complete: true)
        #expect(three["Upload-Draft-Interop-Version"] == "3" && three["Upload-Incomplete"] == "?0" && three["Upload-Complete"] == nil)
        let six = UploadProtocolHeaders.ietf(version: 6, complete: false)
        #expect(six["Upload-Complete"] == "?0" && six["Upload-Incomplete"] == nil)
        #expect(UploadProtocolHeaders.isComplete(in: ["Upload-Incomplete": "?1"]) == false)
        #expect(UploadProtocolHeaders.isComplete(in: ["Upload-Complete": "?1"]) == true)
        #expect(UploadProtocolHeaders.isComplete(in: [:]) == nil)
    }

    @Test func anOffsetIsANonNegativeIntegerOrNothing() {
        #expect(UploadProtocolHeaders.offset(in: ["Upload-Offset": " 1234 "]) == 1234)
        for bad in ["-1", "1e3", "", "12a", "99999999999999999999"] {
            #expect(UploadProtocolHeaders.offset(in: ["Upload-Offset": bad]) == nil, "\(bad)")
        }
    }

    @Test func aFileRewrittenWithTheSameSizeIsNotTheSameFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("f.bin")
        try Pattern.writeFile(at: file, count: 3 << 20, seed: 1)
        let before = try UploadFileIdentity.read(path: file.path)
        #expect(try UploadFileIdentity.read(path: file.path).change(since: before) == nil)

        // Other bytes in the last MiB, the modification time put back as it was.
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(3 << 20) - 10)
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 10))
        try handle.close()
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2) /* UTIME_OMIT */,
                     timespec(tv_sec: Int(before.modifiedNanoseconds / 1_000_000_000), tv_nsec: Int(before.modifiedNanoseconds % 1_000_000_000))]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        #expect(try UploadFileIdentity.read(path: file.path).change(since: before) == "its content changed")

        try Pattern.writeFile(at: file, count: 2 << 20, seed: 1)
        #expect(try UploadFileIdentity.read(path: file.path).change(since: before)?.hasPrefix("its size changed") == true)
    }

    @Test func aBodyResumedAtAnOffsetGivesTheRestAndRewindsToTheOffset() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("f.bin")
        try Pattern.writeFile(at: file, count: 300_000, seed: 2)
        for base in [try FileBodyStream(url: file) as any BodyStream, DataBodyStream(Pattern.bytes(count: 300_000, seed: 2))] {
            let rest = try OffsetBodyStream(base, offset: 123_457)
            #expect(rest.contentLength == 300_000 - 123_457)
            #expect(try Self.readAll(rest) == Pattern.bytes(count: 300_000 - 123_457, seed: 2, offset: 123_457))
            try rest.rewind()
            #expect(try Self.readAll(rest) == Pattern.bytes(count: 300_000 - 123_457, seed: 2, offset: 123_457))
            rest.close()
        }
        #expect(throws: FerryError.self) { try OffsetBodyStream(DataBodyStream(Data(count: 10)), offset: 11) }
    }

    @Test func aWindowOfABodyGivesItsBytesOnlyAndTheLastWindowStopsAtTheEnd() throws {
        let base = DataBodyStream(Pattern.bytes(count: 300_000, seed: 3))
        let window = try OffsetBodyStream(base, offset: 100_000, length: 65_536)
        #expect(window.contentLength == 65_536)
        #expect(try Self.readAll(window) == Pattern.bytes(count: 65_536, seed: 3, offset: 100_000))
        try window.seek(to: 65_000)
        #expect(try Self.readAll(window) == Pattern.bytes(count: 536, seed: 3, offset: 165_000))
        let last = try OffsetBodyStream(DataBodyStream(Pattern.bytes(count: 300_000, seed: 3)), offset: 290_000, length: 65_536)
        #expect(last.contentLength == 10_000)
        #expect(try Self.readAll(last) == Pattern.bytes(count: 10_000, seed: 3, offset: 290_000))
    }

    @Test func theBestChecksumATusServerOffersIsChosenAndNoneWithoutTheExtension() {
        let offered: HTTPHeaders = ["Tus-Extension": "creation, checksum,termination", "Tus-Checksum-Algorithm": "md5,SHA1, sha256"]
        #expect(UploadProtocolHeaders.tusChecksum(in: offered) == .init(name: "sha256", algorithm: .sha256))
        #expect(UploadProtocolHeaders.tusChecksum(in: ["Tus-Extension": "checksum", "Tus-Checksum-Algorithm": "crc32,SHA1"])
            == .init(name: "SHA1", algorithm: .sha1))
        #expect(UploadProtocolHeaders.tusChecksum(in: ["Tus-Extension": "checksum", "Tus-Checksum-Algorithm": "crc32"]) == nil)
        #expect(UploadProtocolHeaders.tusChecksum(in: ["Tus-Extension": "creation", "Tus-Checksum-Algorithm": "sha1"]) == nil)
    }

    @Test func resumeDataIsKeptAsJSONAndReadBack() {
        let identity = UploadFileIdentity(path: "/a", size: 10, modifiedNanoseconds: 5, inode: 7, device: 8, edgeDigest: "ab")
        let data = UploadResumeData(uploadProtocol: .ietf, interopVersion: 6, location: "http://127.0.0.1:1/r/1", length: 10, offset: 4, files: [identity])
        #expect(UploadResumeData.decoded(data.encoded()) == data)
        #expect(UploadResumeData.decoded("{\"nonsense\":1}") == nil)
    }

    static func readAll(_ stream: any BodyStream) throws -> Data {
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: 7000)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { return out }
            out.append(contentsOf: buffer[..<count])
        }
    }
}

/// A multipart body resumed at any byte is the rest of the same body: boundaries and part
/// headers computed, file parts seeked.
struct MultipartSeekTests {
    @Test func aFormSeekedToAnyByteGivesTheRestOfTheSameBody() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Pattern.writeFile(at: directory.file("a.bin"), count: 5000, seed: 3)
        try Pattern.writeFile(at: directory.file("empty.bin"), count: 0, seed: 3)
        try Pattern.writeFile(at: directory.file("b.bin"), count: 3, seed: 4)
        var form = try MultipartFormData(boundary: "Boundary+SEEKTEST")
        for argument in ["title=Holiday", "a=@\(directory.file("a.bin").path)", "e=@\(directory.file("empty.bin").path)",
                         "b=@\(directory.file("b.bin").path);type=text/plain", "note=end"] {
            try form.append(FormFieldSpec.parse(argument))
        }
        let whole = try UploadResumePartsTests.readAll(try form.makeBodyStream())
        let stream = try form.makeBodyStream()
        #expect(Int64(whole.count) == stream.contentLength)
        for offset in stride(from: 0, through: whole.count, by: 7) + [whole.count] {
            try stream.seek(to: Int64(offset))
            #expect(try UploadResumePartsTests.readAll(stream) == whole[offset...], "at \(offset)")
        }
        // A seek after a read, and a rewind after a seek, are exact too.
        try stream.seek(to: 100)
        try stream.rewind()
        #expect(try UploadResumePartsTests.readAll(stream) == whole)
        #expect(throws: FerryError.self) { try stream.seek(to: Int64(whole.count) + 1) }
    }
}
