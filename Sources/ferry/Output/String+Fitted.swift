import FerryTUI

extension String {
    /// `fitted(toWidth:)` is the string cut to `width` terminal columns (wide characters count
    /// two), ending in an ellipsis when cut: a line that must not wrap.
    func fitted(toWidth width: Int) -> String {
        DisplayText.truncate(self, toWidth: width)
    }
}
