import Foundation

/// The probe's report lines on stdout, each written whole before the call returns: a parent that kills the probe
/// right after reading a line knows everything the probe printed up to then.
enum ProbeOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
