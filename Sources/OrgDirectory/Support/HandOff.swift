import Synchronization

/// A value handed to whoever takes it first, so that the taker's copy is the only one left: it is freed where the
/// taker lets go of it, not where the giver's scope ends.
///
/// Why: a value captured by a task (an `async let`, a detached task) stays referenced by the scope that made it
/// until that scope ends. For a large value that should go as soon as the task is done with it (a mapped file,
/// the site directory), the task takes it out of a hand-off instead.
final class HandOff<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    init(_ value: consuming sending Value) {
        self.value = Mutex(Optional(value))
    }

    /// The value, the first time; nil after.
    func take() -> Value? {
        value.withLock { $0.take() }
    }
}
