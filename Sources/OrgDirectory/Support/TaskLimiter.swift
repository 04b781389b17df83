/// Keeps at most `limit` child tasks of a throwing task group running: a new one is added only once a running one
/// has finished (its result goes to `collect` first).
///
/// Why: the renderer queues hundreds of person chunks and whole-directory files, and a first build's prerender a
/// task per arriving page; started all at once, every task's pages and records would be in memory together.
struct TaskLimiter {
    let limit: Int
    private(set) var running = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Adds `work` to `group`, first waiting for a running task (handed to `collect`) when `limit` are running.
    mutating func add<Result: Sendable>(
        _ work: @escaping @Sendable () throws -> Result, to group: inout ThrowingTaskGroup<Result, any Error>,
        collect: (Result) -> Void
    ) async throws {
        if running >= limit, let done = try await group.next() {
            collect(done)
            running -= 1
        }
        group.addTask { try work() }
        running += 1
    }
}
