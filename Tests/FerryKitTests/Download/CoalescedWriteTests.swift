import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// `CoalescedWrite`: one connection's bytes gathered into fewer positional writes, on a real
/// file; what is gathered is never lost or written at the wrong offset.
@Suite struct CoalescedWriteTests {
    private static func bytes(_ count: Int, _ value: UInt8) -> [UInt8] { [UInt8](repeating: value, count: count) }

    @Test func contiguousBytesAreGatheredAndOthersWrittenFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try PartialFile.create(atPath: directory.file("g.part").path)
        let gathered = CoalescedWrite()

        // Given three 16 KiB pieces in a row at 0, then one at 1 MiB (not following them).
        for index in 0..<3 {
            try Self.bytes(16 << 10, UInt8(index + 1)).withUnsafeBytes { try gathered.add($0, at: Int64(index) * (16 << 10), to: file) }
        }
        // Then nothing is written yet.
        #expect(gathered.count == 48 << 10)
        #expect(file.length == 0)

        // When bytes come that do not follow them, the gathered ones go first, at their offset.
        try Self.bytes(100, 9).withUnsafeBytes { try gathered.add($0, at: 1 << 20, to: file) }
        #expect(file.length == 48 << 10)
        #expect(gathered.count == 100)
        try gathered.flush(to: file)
        #expect(gathered.count == 0)

        let data = try Data(contentsOf: directory.file("g.part"))
        #expect(data.count == (1 << 20) + 100)
        #expect(data[0] == 1 && data[(16 << 10)] == 2 && data[(32 << 10) + 5] == 3 && data[1 << 20] == 9)
    }

    @Test func moreThanFitsIsWrittenAtOnceAndAFailedWriteKeepsTheBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try PartialFile.create(atPath: directory.file("h.part").path)
        let gathered = CoalescedWrite()

        // Given bytes larger than the buffer: they are written straight away.
        try Self.bytes(CoalescedWrite.capacity, 7).withUnsafeBytes { try gathered.add($0, at: 0, to: file) }
        #expect(gathered.count == 0)
        #expect(file.length == Int64(CoalescedWrite.capacity))

        // When a write of what is gathered fails (the file is closed), the bytes stay gathered.
        try Self.bytes(10, 1).withUnsafeBytes { try gathered.add($0, at: Int64(CoalescedWrite.capacity), to: file) }
        file.close()
        #expect(throws: FerryError.self) { try gathered.flush(to: file) }
        #expect(gathered.count == 10)
    }
}
