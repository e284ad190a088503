import Foundation
import Testing
@testable import FerryKit

/// `ResumeData`, `ExpectedChecksum`, `ChecksumHasher` and Retry-After parsing.
struct ResumeValueTests {
    @Test func weakETagsAreNotKept() {
        #expect(ResumeData(etag: "W/\"abc\"").etag == nil)
        #expect(ResumeData(etag: "\"abc\"").etag == "\"abc\"")
        #expect(ResumeData(etag: "abc").etag == nil)
        #expect(ResumeData(etag: "W/\"abc\"", lastModified: "Mon, 02 Jan 2023 03:04:05 GMT", durableOffset: 10).ifRange == "Mon, 02 Jan 2023 03:04:05 GMT")
        #expect(ResumeData(etag: "\"e\"", lastModified: "Mon, 02 Jan 2023 03:04:05 GMT", durableOffset: 10).ifRange == "\"e\"")
    }

    @Test func onlyWellFormedStrongETagsAreKept() {
        #expect(ResumeData.strongETag("  \"5f3a-4000\"\t") == "\"5f3a-4000\"")
        #expect(ResumeData.strongETag("\"\"") == "\"\"")
        #expect(ResumeData.strongETag("\"caf\u{E9}\"") == "\"caf\u{E9}\"")
        #expect(ResumeData.strongETag("\"") == nil)
        #expect(ResumeData.strongETag("\"a\"b\"") == nil)
        #expect(ResumeData.strongETag("\"a b\"") == nil)
        #expect(ResumeData.strongETag("\"a\u{7F}\"") == nil)
        #expect(ResumeData.strongETag("\"abc") == nil)
    }

    @Test func withoutAValidatorThereIsNoResume() {
        #expect(ResumeData(totalLength: 100, durableOffset: 50).canResume == false)
        #expect(ResumeData(etag: "\"e\"", totalLength: 100, durableOffset: 0).canResume == false)
        #expect(ResumeData(etag: "\"e\"", totalLength: 100, durableOffset: 50).canResume)
    }

    @Test func checksumsParseAndHash() throws {
        let sha = try ExpectedChecksum(parsing: "SHA256=" + String(repeating: "A", count: 64))
        #expect(sha.algorithm == .sha256)
        #expect(sha.hex == String(repeating: "a", count: 64))
        #expect(throws: FerryError.self) { try ExpectedChecksum(parsing: "sha-256=abc") }
        #expect(throws: FerryError.self) { try ExpectedChecksum(parsing: "crc32=" + String(repeating: "0", count: 8)) }
        #expect(throws: FerryError.self) { try ExpectedChecksum(parsing: "md5=" + String(repeating: "g", count: 32)) }
        // Known digests of "abc".
        let expected: [ExpectedChecksum.Algorithm: String] = [
            .md5: "900150983cd24fb0d6963f7d28e17f72",
            .sha1: "a9993e364706816aba3e25717850c26c9cd0d89d",
            .sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            .sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        ]
        for (algorithm, digest) in expected {
            var hasher = ChecksumHasher(algorithm: algorithm)
            Array("a".utf8).withUnsafeBytes { hasher.update($0) }
            Array("bc".utf8).withUnsafeBytes { hasher.update($0) }
            #expect(hasher.finalizeHex() == digest, "\(algorithm)")
        }
    }

    @Test func retryAfterTakesSecondsOrADate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryPolicy.retryAfterSeconds("7", now: now) == 7)
        #expect(RetryPolicy.retryAfterSeconds("Tue, 14 Nov 2023 22:13:40 GMT", now: now) == 20)
        #expect(RetryPolicy.retryAfterSeconds("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfterSeconds("-3", now: now) == nil)
    }
}
