/// `ImageHeaderParser` reads an ``ImageInfo`` from the bytes at the start of an image file,
/// never decoding pixels.
struct ImageHeaderParser {
    /// How many bytes are scanned at most, 1 MiB (enough for JPEGs with large EXIF blocks).
    static let maximumScannedLength = 1 << 20

    let bytes: [UInt8]

    func parse() throws(FerryError) -> ImageInfo {
        guard !bytes.isEmpty else { throw invalid("the body is empty") }
        let info: ImageInfo
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            info = try png()
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            info = try jpeg()
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            info = try gif()
        } else if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 12, bytes[8..<12].elementsEqual("WEBP".utf8) {
            info = try webP()
        } else {
            throw invalid("not a PNG, JPEG, GIF or WebP image")
        }
        guard info.width > 0, info.height > 0 else {
            throw invalid("the \(info.format.rawValue) header gives a size of \(info.width)x\(info.height)")
        }
        return info
    }

    private func invalid(_ why: String) -> FerryError {
        .serialization(.invalidImage(why))
    }

    private func require(_ count: Int, _ format: ImageInfo.Format) throws(FerryError) {
        guard bytes.count >= count else { throw invalid("the \(format.rawValue) header is truncated") }
    }

    private func bigEndian(_ offset: Int, _ length: Int) -> Int {
        bytes[offset..<(offset + length)].reduce(0) { $0 << 8 | Int($1) }
    }

    private func littleEndian(_ offset: Int, _ length: Int) -> Int {
        bytes[offset..<(offset + length)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// Signature, then the IHDR chunk: length, `IHDR`, width and height as big-endian 32-bit.
    private func png() throws(FerryError) -> ImageInfo {
        try require(24, .png)
        guard bytes[12..<16].elementsEqual("IHDR".utf8) else { throw invalid("the PNG does not start with an IHDR chunk") }
        return ImageInfo(format: .png, width: bigEndian(16, 4), height: bigEndian(20, 4))
    }

    /// `GIF87a`/`GIF89a`, then the logical screen width and height as little-endian 16-bit.
    private func gif() throws(FerryError) -> ImageInfo {
        try require(10, .gif)
        return ImageInfo(format: .gif, width: littleEndian(6, 2), height: littleEndian(8, 2))
    }

    /// Walks the marker segments up to the first start-of-frame (SOF0-SOF15 except DHT, JPG and
    /// DAC), whose payload is precision, height and width (big-endian 16-bit).
    private func jpeg() throws(FerryError) -> ImageInfo {
        var index = 2
        scan: while index < bytes.count {
            guard bytes[index] == 0xFF else { throw invalid("the JPEG has no marker at offset \(index)") }
            while index < bytes.count, bytes[index] == 0xFF {
                index += 1
            }
            guard index < bytes.count else { break scan }
            let marker = bytes[index]
            index += 1
            switch marker {
            case 0x01, 0xD0...0xD8:
                continue
            case 0xD9, 0xDA:
                throw invalid("the JPEG has no frame header before its image data")
            default:
                guard index + 2 <= bytes.count else { break scan }
                let length = bigEndian(index, 2)
                guard length >= 2 else { throw invalid("the JPEG has a segment of length \(length) at offset \(index)") }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    try require(index + 7, .jpeg)
                    return ImageInfo(format: .jpeg, width: bigEndian(index + 5, 2), height: bigEndian(index + 3, 2))
                }
                index += length
            }
        }
        throw invalid("the JPEG header is truncated")
    }

    /// `RIFF`, size, `WEBP`, then the first chunk: `VP8 ` (a key frame: start code 9D 01 2A,
    /// then 14-bit width and height), `VP8L` (signature 2F, then 14-bit width-1 and height-1)
    /// or `VP8X` (24-bit canvas width-1 and height-1).
    private func webP() throws(FerryError) -> ImageInfo {
        try require(30, .webP)
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            guard bytes[23..<26].elementsEqual([0x9D, 0x01, 0x2A]) else { throw invalid("the WebP VP8 frame has no start code") }
            return ImageInfo(format: .webP, width: littleEndian(26, 2) & 0x3FFF, height: littleEndian(28, 2) & 0x3FFF)
        case "VP8L":
            guard bytes[20] == 0x2F else { throw invalid("the WebP VP8L stream has no signature") }
            let bits = littleEndian(21, 4)
            return ImageInfo(format: .webP, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return ImageInfo(format: .webP, width: littleEndian(24, 3) + 1, height: littleEndian(27, 3) + 1)
        default:
            throw invalid("the WebP starts with an unknown chunk \"\(chunk.printable)\"")
        }
    }
}
