import CLibFuzzer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libFuzzer with one Swift closure as its target: the body of each fuzz executable's `main`.
///
/// ```swift
/// @main enum KeyPathFuzzer {
///     static func main() {
///         FuzzDriver.run { bytes in _ = try? StoreKeyPath(parsing: String(decoding: bytes, as: UTF8.self)) }
///     }
/// }
/// ```
/// The command line goes to libFuzzer as it is (`-max_total_time=60 corpus/`, or a file to replay one input).
/// A failed ``FuzzCheck`` or any trap in the code under test is a crash, which libFuzzer reports and saves.
public enum FuzzDriver {
    /// The target; set once in ``run(_:)`` before libFuzzer starts, read only from libFuzzer's thread.
    nonisolated(unsafe) private static var target: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }

    /// Hands the command line to libFuzzer and exits with its status.
    public static func run(_ body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
        target = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }

    /// Runs the target on one input. It is also libFuzzer's `LLVMFuzzerTestOneInput`, which `-sanitize=fuzzer`
    /// links libFuzzer whole and so needs defined, though the driver is handed it directly.
    static let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
        target(UnsafeBufferPointer(start: data, count: size))
        return 0
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(data, size)
}
