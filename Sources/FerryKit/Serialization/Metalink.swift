import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `Metalink` is a Metalink document read with a real XML parser: Metalink 4 (RFC 5854,
/// `urn:ietf:params:xml:ns:metalink`) and the older Metalink 3.0 (`metalinker.org`). Each file
/// has a name, maybe a size, whole-file hashes, piece hashes and its sources, best first.
///
/// Outside input, so every limit is checked and every name made safe before a byte is
/// fetched: at most ``maximumBytes`` of document, ``maximumDepth`` nested elements,
/// ``maximumFiles`` files of ``maximumSources`` sources each; a name is a relative path whose
/// parts are neither empty, `.` nor `..` and hold no control character (an absolute name, or
/// one that climbs out of the download directory, is an error naming the file). External
/// entities are never resolved. Only http and https sources are kept.
public struct Metalink: Sendable, Equatable {
    public static let maximumBytes = 32 << 20
    public static let maximumDepth = 16
    public static let maximumFiles = 10_000
    public static let maximumSources = 1_000

    /// `Hash` is a digest as the document names it, the algorithm normalized (`sha-256`,
    /// `sha-1`, `sha-512`, `md5`; others kept as given, lowercased).
    public struct Hash: Sendable, Equatable {
        public var algorithm: String
        public var hex: String

        public init(algorithm: String, hex: String) {
            self.algorithm = algorithm
            self.hex = hex
        }
    }

    /// `Pieces` are the hashes of consecutive pieces of `length` bytes (the last may be shorter).
    public struct Pieces: Sendable, Equatable {
        public var length: Int64
        public var algorithm: String
        public var hashes: [String]

        public init(length: Int64, algorithm: String, hashes: [String]) {
            self.length = length
            self.algorithm = algorithm
            self.hashes = hashes
        }
    }

    /// `Source` is one URL of a file: `priority` 1 is the most preferred (Metalink 3's
    /// `preference` 100 becomes 1), `location` an ISO 3166 country code when given.
    public struct Source: Sendable, Equatable {
        public var url: String
        public var priority: Int
        public var location: String?

        public init(url: String, priority: Int, location: String? = nil) {
            self.url = url
            self.priority = priority
            self.location = location
        }
    }

    /// `File` is one file of the document.
    public struct File: Sendable, Equatable {
        /// `name` is the file's relative path (checked).
        public var name: String
        public var size: Int64?
        public var hashes: [Hash]
        public var pieces: Pieces?
        /// `sources` are best first: by priority, then in document order.
        public var sources: [Source]

        public init(name: String, size: Int64?, hashes: [Hash], pieces: Pieces?, sources: [Source]) {
            self.name = name
            self.size = size
            self.hashes = hashes
            self.pieces = pieces
            self.sources = sources
        }

        /// `sources(preferring:protocol:)` are the sources with those in `locations` (country
        /// codes, lowercased) first, then those of `preferredProtocol` (`http`, `https`), each
        /// group in priority order: aria2's `--metalink-location` and
        /// `--metalink-preferred-protocol`.
        public func sources(preferring locations: [String], protocol preferredProtocol: String?) -> [Source] {
            func rank(_ source: Source) -> Int {
                var rank = 0
                if !locations.isEmpty, !(source.location.map(locations.contains) ?? false) { rank += 2 }
                if let preferredProtocol, URL(string: source.url)?.scheme?.lowercased() != preferredProtocol { rank += 1 }
                return rank
            }
            return sources.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }

        /// `strongestHash` is the whole-file hash to check: sha-512, sha-256, sha-1, then md5.
        public var strongestHash: Hash? {
            for algorithm in ["sha-512", "sha-256", "sha-1", "md5"] {
                if let hash = hashes.first(where: { $0.algorithm == algorithm }) { return hash }
            }
            return nil
        }

        /// `folders` are the name's folders, `fileName` its last part.
        public var folders: [String] { name.split(separator: "/").dropLast().map(String.init) }
        public var fileName: String { name.split(separator: "/").last.map(String.init) ?? name }
    }

    /// `version` is 4 or 3.
    public var version: Int
    public var files: [File]

    /// `parse(_:)` reads a Metalink document; anything that is not one, or breaks a limit,
    /// is a ``SerializationReason/invalidMetalink(_:)`` error saying what.
    public static func parse(_ data: Data) throws(FerryError) -> Metalink {
        guard data.count <= maximumBytes else {
            throw .serialization(.invalidMetalink("the Metalink is \(data.count) bytes; at most \(maximumBytes) are read"))
        }
        if let problem = XMLInputCheck.problem(in: data) { throw .serialization(.invalidMetalink(problem)) }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder(maximumDepth: maximumDepth)
        parser.delegate = builder
        let succeeded = parser.parse()
        if builder.tooDeep {
            throw .serialization(.invalidMetalink("the Metalink nests elements more than \(maximumDepth) deep"))
        }
        if let (code, line, column) = builder.firstError {
            throw .serialization(.invalidMetalink("\(XMLParserResponseSerializer.message(forErrorCode: code)) at line \(line), column \(column)"))
        }
        guard succeeded, let root = builder.root else { throw .serialization(.invalidMetalink("the Metalink is empty or cut short")) }
        return try Metalink(root: root)
    }

    private init(root: XMLDocumentTree.Element) throws(FerryError) {
        guard Self.localName(root.name) == "metalink" else {
            throw .serialization(.invalidMetalink("not a Metalink: the root element is <\(root.name)>"))
        }
        let isVersion3 = root[attribute: "version"]?.hasPrefix("3") == true || root[attribute: "xmlns"] == "http://www.metalinker.org/"
        version = isVersion3 ? 3 : 4
        let fileElements = isVersion3 ? Self.children(of: root, named: "files").flatMap { Self.children(of: $0, named: "file") }
            : Self.children(of: root, named: "file")
        guard !fileElements.isEmpty else { throw .serialization(.invalidMetalink("the Metalink names no file")) }
        guard fileElements.count <= Self.maximumFiles else {
            throw .serialization(.invalidMetalink("the Metalink names \(fileElements.count) files; at most \(Self.maximumFiles) are taken"))
        }
        var files: [File] = []
        for element in fileElements {
            files.append(try Self.file(element, version3: isVersion3))
        }
        self.files = files
    }

    private static func file(_ element: XMLDocumentTree.Element, version3: Bool) throws(FerryError) -> File {
        let name = try safeName(element[attribute: "name"] ?? "")
        var size: Int64?
        if let text = children(of: element, named: "size").first?.text.trimmingCharacters(in: .whitespacesAndNewlines) {
            guard let value = Int64(text), value >= 0 else { throw .serialization(.invalidMetalink("\(name): the size \"\(text)\" is not a number of bytes")) }
            size = value
        }
        let holder = version3 ? children(of: element, named: "verification").first : element
        var hashes: [Hash] = []
        var pieces: Pieces?
        if let holder {
            for hash in children(of: holder, named: "hash") {
                guard let type = hash[attribute: "type"] else { continue }
                hashes.append(Hash(algorithm: algorithm(type), hex: hash.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()))
            }
            if let piecesElement = children(of: holder, named: "pieces").first {
                guard let text = piecesElement[attribute: "length"], let length = Int64(text), length > 0,
                      let type = piecesElement[attribute: "type"] else {
                    throw .serialization(.invalidMetalink("\(name): <pieces> needs a length and a type"))
                }
                let values = children(of: piecesElement, named: "hash").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
                pieces = Pieces(length: length, algorithm: algorithm(type), hashes: values)
            }
        }
        let urlHolder = version3 ? children(of: element, named: "resources").first : element
        let urls = urlHolder.map { children(of: $0, named: "url") } ?? []
        guard urls.count <= maximumSources else {
            throw .serialization(.invalidMetalink("\(name): \(urls.count) sources; at most \(maximumSources) are taken"))
        }
        var sources: [Source] = []
        for url in urls {
            let text = url.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  parsed.host?.isEmpty == false else { continue }
            let priority: Int
            if version3 {
                // preference 100 is the most preferred.
                priority = 101 - min(100, max(0, Int(url[attribute: "preference"] ?? "") ?? 0))
            } else {
                priority = min(999_999, max(1, Int(url[attribute: "priority"] ?? "") ?? 999_999))
            }
            sources.append(Source(url: text, priority: priority, location: url[attribute: "location"]?.lowercased()))
        }
        guard !sources.isEmpty else { throw .serialization(.invalidMetalink("\(name): no http or https source")) }
        // Stable: equal priorities keep the document's order.
        let ordered = sources.enumerated().sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }.map(\.element)
        return File(name: name, size: size, hashes: hashes, pieces: pieces, sources: ordered)
    }

    /// `safeName(_:)` is `name` when it is a relative path that stays in the download
    /// directory, else an error naming it.
    static func safeName(_ name: String) throws(FerryError) -> String {
        let shown = name.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
        guard !name.isEmpty else { throw .serialization(.invalidMetalink("a file of the Metalink has no name")) }
        guard !name.hasPrefix("/"), !name.contains("\\") else {
            throw .serialization(.invalidMetalink("the file name \"\(shown)\" is absolute: a Metalink names files inside the download directory"))
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .serialization(.invalidMetalink("the file name \"\(shown)\" holds a control character"))
        }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw .serialization(.invalidMetalink("the file name \"\(shown)\" leaves the download directory (or has an empty part)"))
        }
        return name
    }

    /// `algorithm(_:)` is a hash type as Ferry names it: `sha256` and `sha-256` are `sha-256`.
    static func algorithm(_ type: String) -> String {
        switch type.lowercased() {
        case "sha-256", "sha256": "sha-256"
        case "sha-1", "sha1": "sha-1"
        case "sha-512", "sha512": "sha-512"
        case "md5": "md5"
        default: type.lowercased()
        }
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private static func children(of element: XMLDocumentTree.Element, named name: String) -> [XMLDocumentTree.Element] {
        element.elements.filter { localName($0.name) == name }
    }
}
