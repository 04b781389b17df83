import Foundation
import Synchronization
import Testing

@testable import OrgDirectory

/// Large values handed to `BackgroundRelease` are freed by its task, once, and never kept alive for good, unless the
/// process keeps them until it exits (the `orgdir` command), where nothing handed over is freed.
@Suite("Background release")
struct BackgroundReleaseTests {
    /// Counts the deinits of its objects.
    final class Tracked: Sendable {
        let freed: Counter
        init(_ freed: Counter) { self.freed = freed }
        deinit { freed.add() }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test("a dropped value, handed over as a temporary or with consume, is freed, and once")
    func droppedValuesAreFreedOnce() async throws {
        let freed = Counter()
        BackgroundRelease.drop([Tracked(freed), Tracked(freed)])
        let list = [Tracked(freed), Tracked(freed)]
        BackgroundRelease.drop(consume list)
        // The tasks run at background priority: wait for them, without a deadline on how soon.
        while freed.value < 4 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(freed.value == 4)
    }

    @Test("by default, keepIfExiting holds nothing: the value is freed with its last other reference")
    func keepIfExitingHoldsNothingByDefault() {
        let freed = Counter()
        do {
            let value = Tracked(freed)
            BackgroundRelease.keepIfExiting(value)
        }
        #expect(freed.value == 1)
    }

    @Test("in a process that keeps values until it exits, neither a dropped nor a kept value is ever freed")
    func keptUntilExitValuesAreNeverFreed() async {
        // A process of its own: keeping is for the rest of the process, and this test process runs many builds.
        await #expect(processExitsWith: .success) {
            let freed = Counter()
            BackgroundRelease.keepUntilExit()
            BackgroundRelease.drop([Tracked(freed), Tracked(freed)])
            do {
                let value = Tracked(freed)
                BackgroundRelease.keepIfExiting(value)
            }
            // Long enough for a background task to have run, were one started.
            try? await Task.sleep(for: .milliseconds(200))
            exit(freed.value == 0 && BackgroundRelease.keepsUntilExit ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }
}
