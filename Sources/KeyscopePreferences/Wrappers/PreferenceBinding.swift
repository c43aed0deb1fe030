public import KeyscopeCore

/// A read-write handle to one value: a getter and a setter, a publisher of its values and a way to re-read it.
/// What `$name` gives for ``UserDefaultValue`` and ``KeychainValue``.
///
/// ```swift
/// @UserDefaultValue("theme", defaultValue: Theme.light, suite: "com.shop") var theme: Theme
///
/// let binding = $theme                                   // hand it to a view model or a test
/// binding.wrappedValue = .dark                           // writes the preference
/// let watch = binding.publisher.sink { print($0) }       // the current value, then every change
/// binding.refresh()                                      // picks up an edit made by someone else now
/// ```
/// The closures are called on the caller's thread; the handle is as thread-safe as they are (the wrappers' are).
public struct PreferenceBinding<Value: Sendable>: Sendable {
    private let getter: @Sendable () -> Value
    private let setter: @Sendable (Value) -> Void
    private let makePublisher: @Sendable () -> AnyPublisher<Value, Never>
    private let refresher: @Sendable () -> Void

    /// A handle over `get` and `set`. `publisher` makes the publisher of values (by default one that sends the
    /// current value once); `refresh` re-reads the value from wherever it lives (by default nothing).
    public init(
        get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void,
        publisher: (@Sendable () -> AnyPublisher<Value, Never>)? = nil, refresh: @escaping @Sendable () -> Void = {}
    ) {
        self.getter = get
        self.setter = set
        self.makePublisher = publisher ?? { Just(get()).eraseToAnyPublisher() }
        self.refresher = refresh
    }

    /// A handle that always reads `value` and ignores writes (previews and tests).
    public static func constant(_ value: Value) -> PreferenceBinding<Value> {
        PreferenceBinding(get: { value }, set: { _ in })
    }

    /// The value: reading calls the getter, writing calls the setter.
    public var wrappedValue: Value {
        get { getter() }
        nonmutating set { setter(newValue) }
    }

    /// The current value when subscribed, then every change (writes through any handle or wrapper of the same
    /// value, and outside changes once they are seen: see the wrapper's documentation for how soon).
    public var publisher: AnyPublisher<Value, Never> { makePublisher() }

    /// Re-reads the value from where it lives; a change found is sent to ``publisher``'s subscribers.
    public func refresh() { refresher() }
}
