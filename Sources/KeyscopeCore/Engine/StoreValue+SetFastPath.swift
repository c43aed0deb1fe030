extension StoreValue {
    /// What ``setIfPresent(_:_:)`` did: `nil` when it changed nothing and the general set must take the write;
    /// otherwise what was at the path before (`.some(nil)`: nothing, the key or element was added).
    typealias FastSetOutcome = StoreValue??

    /// Sets `value` at `segments` when every container above the last segment is already there with the right type,
    /// and returns what was there before; returns `nil`, having changed nothing, in every other case (the root
    /// itself, a missing or mistyped parent, an index past the end), which ``setValue(_:_:createIntermediates:)``
    /// then takes, creating what is missing or throwing the error that says why it cannot.
    ///
    /// Nearly every `set` a program makes lands on an existing parent. The general walk (``TreeWalk``) is generic
    /// over its result and calls two closures at each step, and its result travels up through a `SetOutcome`; in a
    /// set of `cart.total` on an unheard store that plumbing (value witnesses, closure contexts, enum copies) cost
    /// as many instructions as hashing the two keys. This walk does the same steps with nothing around them: one
    /// hash of each key (its index, then the member changed through it), each container moved out of its case
    /// while it changes, as ``TreeWalk`` does, so that nothing is copied. Where it succeeds its result is the
    /// general set's: the last key updated or added, the last index replaced or appended at the end.
    mutating func setIfPresent(_ segments: [StoreKeyPath.Segment], _ value: StoreValue) -> FastSetOutcome {
        guard !segments.isEmpty else { return nil }
        return Self.setIfPresent(&self, segments, 0, value)
    }

    private static func setIfPresent(
        _ node: inout StoreValue, _ segments: [StoreKeyPath.Segment], _ depth: Int, _ value: StoreValue
    ) -> FastSetOutcome {
        let isLast = depth == segments.count - 1
        switch segments[depth] {
        case .key(let key):
            guard case .object(var members) = node else { return nil }
            if isLast {
                node = .null
                let old = members.updateValue(value, forKey: key)
                node = .object(members)
                return .some(old)
            }
            guard let index = members.index(forKey: key) else { return nil }
            node = .null
            defer { node = .object(members) }
            return setIfPresent(&members.values[index], segments, depth + 1, value)
        case .index(let index):
            guard case .array(var elements) = node else { return nil }
            if isLast {
                guard index <= elements.count else { return nil }
                node = .null
                defer { node = .array(elements) }
                if index == elements.count {
                    elements.append(value)
                    return .some(nil)
                }
                let old = elements[index]
                elements[index] = value
                return .some(old)
            }
            guard index < elements.count else { return nil }
            node = .null
            defer { node = .array(elements) }
            return setIfPresent(&elements[index], segments, depth + 1, value)
        }
    }
}
