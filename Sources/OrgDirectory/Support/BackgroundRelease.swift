import Synchronization

/// Frees large values on another thread.
///
/// Why: at the end of a build the site directory and a first build's prerender records (100,000 people: about
/// 0.1–0.2 s of `free`) would be freed on the thread that goes on to publish and save. The value is moved into a
/// slot that only the detached task empties, so the caller holds no reference of its own that could turn out to
/// be the last. (Capturing the value in the task's closure, as this did before, lost the race whenever the task
/// ran at once on an idle core: the task let go of its copy first, and the caller's copy, released as its scope
/// ended, freed everything on the caller's thread. A profile of a 100,000-person build showed it as 150 ms of
/// `swift_release` under `BuildPipeline.run` at the very end.) Callers hand values over with `consume` or as a
/// temporary, so no binding of theirs keeps a copy.
enum BackgroundRelease {
    static func drop<Value: Sendable>(_ value: consuming sending Value) {
        let slot = Slot(value)
        Task.detached(priority: .background) { slot.empty() }
    }

    /// Holds the value until the task empties it.
    private final class Slot<Value: Sendable>: Sendable {
        private let value: Mutex<Value?>

        init(_ value: consuming sending Value) {
            self.value = Mutex(Optional(value))
        }

        func empty() {
            let taken = value.withLock { $0.take() }
            withExtendedLifetime(taken) {}
        }
    }
}
