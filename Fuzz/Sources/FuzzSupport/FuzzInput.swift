/// `FuzzInput` hands out a fuzzer's bytes as the small choices a target needs: a byte, a
/// number below a bound, a run of bytes. Past the end every choice is zero or empty, so a
/// target never runs out of input.
public struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    /// `init(_:_:)` copies the `size` bytes at `data` (libFuzzer's arguments).
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = ArraySlice(Self.copy(data, size))
    }

    /// `init(bytes:)` reads `bytes`.
    public init(bytes: [UInt8]) {
        self.bytes = ArraySlice(bytes)
    }

    /// `copy(_:_:)` is the `size` bytes at `data` as an array (empty for a null pointer).
    public static func copy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// `isEmpty` is whether every byte was taken.
    public var isEmpty: Bool { bytes.isEmpty }

    /// `byte()` takes one byte, 0 at the end.
    public mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// `number(below:)` takes two bytes as a number in `0..<bound` (`bound` at least 1).
    public mutating func number(below bound: Int) -> Int {
        let value = Int(byte()) << 8 | Int(byte())
        return value % max(1, bound)
    }

    /// `bytes(upTo:)` takes a length byte, then that many bytes (at most `limit`).
    public mutating func bytes(upTo limit: Int) -> [UInt8] {
        let count = min(Int(byte()), limit, bytes.count)
        let taken = Array(bytes.prefix(count))
        bytes = bytes.dropFirst(count)
        return taken
    }

    /// `string(upTo:)` is `bytes(upTo:)` decoded as UTF-8 (invalid sequences replaced).
    public mutating func string(upTo limit: Int) -> String {
        String(decoding: bytes(upTo: limit), as: UTF8.self)
    }

    /// `rest()` takes every remaining byte.
    public mutating func rest() -> [UInt8] {
        let taken = Array(bytes)
        bytes = []
        return taken
    }
}
