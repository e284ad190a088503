#if canImport(Glibc)
import Glibc
#endif

/// `OpenFileLimit` raises the process's soft limit on open files towards its hard limit.
///
/// Each running transfer holds a socket, and up to `SlotPlanner.finishingFactor` times
/// `--max-concurrent` finished files stay open until their group sync: with a few hundred
/// transfers at once the common default soft limit (1,024) would fail downloads with "Too
/// many open files", or connections with a misleading "Couldn't connect". Raising the soft
/// limit up to the hard one needs no privilege; everything here waits in `poll`, never in
/// `select`, so descriptors above 1,024 are fine.
enum OpenFileLimit {
    /// `wanted` is the soft limit asked for when the hard limit allows it.
    static let wanted: rlim_t = 65_536

    /// `raise()` raises the soft limit to `min(hard, wanted)` when it is lower; when the
    /// limits cannot be read or set, they stay as they are.
    static func raise() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return }
        let target = min(limit.rlim_max, wanted)
        guard limit.rlim_cur < target else { return }
        limit.rlim_cur = target
        _ = setrlimit(resource, &limit)
    }
}
