import FerryKit

/// `Checksum` is the expected digest of a queued download: FerryKit's ``ExpectedChecksum``
/// with the queue's input errors (a batch line or `ferry add` names the bad value).
public struct Checksum: Sendable, Hashable, CustomStringConvertible {
    /// `Algorithm` lists the digests Ferry can verify, with their aria2 names (`sha-256`).
    public typealias Algorithm = ExpectedChecksum.Algorithm

    /// `expected` is the digest in the form FerryKit's downloads check while writing.
    public let expected: ExpectedChecksum
    /// `algorithm` is the digest to compute.
    public var algorithm: Algorithm { expected.algorithm }
    /// `hex` is the expected digest in lowercase hex.
    public var hex: String { expected.hex }

    /// `init(algorithm:hex:)` checks that `hex` has the right length and only hex digits.
    public init(algorithm: Algorithm, hex: String) throws(QueueError) {
        do {
            expected = try ExpectedChecksum(algorithm: algorithm, hex: hex)
        } catch {
            throw .input(.invalidChecksum("\(algorithm.rawValue)=\(hex)"))
        }
    }

    /// `init(parsing:)` reads aria2's and Ferry's `ALGO=HEX` form, for example `sha-256=9f86...`.
    public init(parsing text: String) throws(QueueError) {
        do {
            expected = try ExpectedChecksum(parsing: text)
        } catch {
            throw .input(.invalidChecksum(text))
        }
    }

    /// `description` is the `ALGO=HEX` form.
    public var description: String { expected.description }
}
