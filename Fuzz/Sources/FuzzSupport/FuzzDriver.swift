import CFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// `runFuzzer(_:)` hands the command line to libFuzzer's driver with `target` as the function
/// it calls for every input, and exits with the driver's status.
///
/// Each fuzz target has a `main` of its own that calls this: SwiftPM gives an executable's
/// `main` another name in debug builds and points `main` at it, so libFuzzer's own `main`
/// cannot be used.
public func runFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
