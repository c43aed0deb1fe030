import Foundation

/// C copies of Swift strings that must stay put while lws may read them, freed together by ``free()``.
///
/// ```swift
/// let strings = CStrings(["keyscope.v1", "127.0.0.1"])
/// defer { strings.free() }
/// info.protocol = UnsafePointer(strings[0])
/// ```
struct CStrings {
    private let pointers: [UnsafeMutablePointer<CChar>]

    init(_ strings: [String]) {
        // strdup only fails when memory is exhausted, where nothing else would work either.
        pointers = strings.map { strdup($0)! }
    }

    subscript(index: Int) -> UnsafeMutablePointer<CChar> { pointers[index] }

    func free() {
        for pointer in pointers { Foundation.free(pointer) }
    }
}
