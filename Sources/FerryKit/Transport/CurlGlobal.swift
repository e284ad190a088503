import CCurl

/// `CurlGlobal` initialises libcurl once per process, before the first handle is made.
enum CurlGlobal {
    /// Touching this runs `curl_global_init` exactly once (Swift globals initialise once, thread-safely).
    static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    /// The version of the libcurl linked at run time, for example `7.88.1`.
    static var version: String {
        guard let info = curl_version_info(CURLVERSION_TENTH), let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }
}
