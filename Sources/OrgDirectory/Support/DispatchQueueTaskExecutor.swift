import Dispatch

/// Runs the jobs of the tasks that prefer it on a serial dispatch queue of its own, outside Swift's cooperative
/// thread pool.
///
/// The cooperative pool has one thread per core: on two cores, two page decodes running there made the next
/// Graph request wait for a free thread (several milliseconds a page, more than the client's own work). Work
/// that is mostly waiting but must react at once, such as the chain of page requests, runs here instead,
/// where the kernel schedules it beside the busy pool threads.
final class DispatchQueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
