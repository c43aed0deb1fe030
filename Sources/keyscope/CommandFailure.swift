/// An error a client command stops with: ArgumentParser prints `Error: <message>` and exits with status 1.
///
/// ```swift
/// throw CommandFailure("no store \"app/x\" in the snapshot; stores: app/memory")
/// ```
struct CommandFailure: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
