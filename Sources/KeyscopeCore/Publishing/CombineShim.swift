// The one place that chooses the publisher library: Apple's Combine where it exists, OpenCombine elsewhere.
// Both are re-exported so that `import KeyscopeCore` is enough to `sink` on a store's publishers.
#if canImport(Combine)
@_exported public import Combine
#else
@_exported public import OpenCombine
#endif
