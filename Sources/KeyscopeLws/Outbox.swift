/// The messages waiting for a connection's writable callbacks, oldest first. Taking one moves an index instead of
/// shifting the rest, lets go of the taken message at once, and reuses the storage once the queue is empty.
///
/// ```swift
/// var outbox = Outbox<[UInt8]>()
/// outbox.append(hello)
/// if let next = outbox.popFirst() { send(next) }   // one message per writable callback
/// ```
/// Touched only by the service thread.
package struct Outbox<Element> {
    private var elements: [Element?] = []
    private var head = 0

    package init() {}

    /// Whether nothing is waiting.
    package var isEmpty: Bool { head == elements.count }

    /// Queues a message behind the others.
    package mutating func append(_ element: Element) { elements.append(element) }

    /// Takes the oldest message; `nil` when the queue is empty.
    package mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head].take()
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }
}
