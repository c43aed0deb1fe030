import Foundation
public import KeyscopeCodec

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordingHeader.Source {
    /// This process: its name, this machine's host name and its pid.
    ///
    /// ```swift
    /// RecordingHeader.Source.thisProcess   // name "checkout-service", host "dev-1", pid 4242
    /// ```
    public static var thisProcess: RecordingHeader.Source {
        RecordingHeader.Source(
            name: ProcessInfo.processInfo.processName, host: hostName(),
            pid: Int64(ProcessInfo.processInfo.processIdentifier))
    }

    /// This machine's host name (`gethostname`, no name service lookup), or `nil` when it has none.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
