extension Dictionary {
    /// Runs `body` on the value of `key` in place and returns what it returns; `nil` when there is no such key.
    ///
    /// In place matters for values that hold arrays: `var value = dictionary[key]` then a change then writing it
    /// back shares the arrays for a moment, so the change copies them whole (the fleet view's mirrors hold 10,000
    /// lines each).
    mutating func update<Result>(_ key: Key, _ body: (inout Value) throws -> Result) rethrows -> Result? {
        guard let index = index(forKey: key) else { return nil }
        return try body(&values[index])
    }
}
