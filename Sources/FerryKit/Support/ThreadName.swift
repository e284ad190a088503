import CFerrySystem

/// `ThreadName` names the calling thread for the kernel, so `top -H`, `ps -L` and debuggers
/// show it (Foundation's `Thread.name` does not reach the kernel on Linux).
package enum ThreadName {
    /// `setCurrent(_:)` names the calling thread; the kernel keeps the first 15 bytes.
    public static func setCurrent(_ name: String) {
        _ = csystem_set_thread_name(name)
    }
}
