import FerryKit
import FerryQueue

extension DownloadOptions {
    /// `-x/--connections` and `--min-split-size` checked; `nil` where not given.
    func parsedSegmentation() throws(FerryError) -> (connections: Int?, minSplitSize: Int64?) {
        if let connections, !TaskOptions.connectionRange.contains(connections) {
            throw .input(.invalidOption("invalid -x/--connections \(connections): expected 1 to 16"))
        }
        var size: Int64?
        if let minSplitSize {
            guard let bytes = TaskOptions.parseByteCount(minSplitSize), bytes >= 1024, bytes <= 1 << 40 else {
                throw .input(.invalidOption("invalid --min-split-size \"\(minSplitSize.displayable)\": expected a size from 1K to 1T, e.g. 1M"))
            }
            size = bytes
        }
        return (connections, size)
    }
}
