import Synchronization
import Testing

@testable import OrgDirectory

/// Large values handed to `BackgroundRelease` are freed by its task, once, and never kept alive for good.
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
}
