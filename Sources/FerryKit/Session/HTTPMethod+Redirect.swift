extension HTTPMethod {
    /// `redirected(by:)` is the method libcurl sends after following a redirect with `status`:
    /// a 303 turns every method but `GET` and `HEAD` into `GET`, a 301 or 302 turns `POST`
    /// into `GET` (as browsers do); anything else keeps the method (307 and 308 always do).
    public func redirected(by status: Int) -> HTTPMethod {
        switch status {
        case 303 where self != .get && self != .head: .get
        case 301 where self == .post, 302 where self == .post: .get
        default: self
        }
    }
}
