import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ParallelWork {
    /// `perform` on threads of its own (the caller's and one more for each further core), not GCD's workers.
    ///
    /// Why: `concurrentPerform` holds GCD's worker threads, one per core, until the pass ends, and URLSession's work
    /// waits for one of them: a nightly's delta round, asked for while the snapshot decodes, was answered only after
    /// the decode (at 144 ms median against 98 ms on threads of its own, `Benchmarks/ab-nightly.sh OLD NEW 10` and
    /// the runs' `--verbose` stages). On threads of its own, the pass leaves GCD's workers free and the kernel
    /// schedules the round's few milliseconds of work beside it. Only for a pass that runs while responses are
    /// awaited: elsewhere GCD's workers, kept from one pass to the next, cost no thread creation.
    ///
    /// Like `perform`, it must not be called from inside another pass's `body` (a debug build stops there).
    ///
    /// Each further thread is launched by `launch` (`ThreadWork.launchThread`, `pthread_create`, by default); one it
    /// cannot launch leaves its share to the others, the caller's among them. The tests refuse every launch, as a
    /// process at its thread limit would (`pthread_create` failing with EAGAIN).
    static func performOnOwnThreads(
        iterations: Int, launchingThreadsWith launch: (UnsafeMutableRawPointer) -> pthread_t? = ThreadWork.launchThread,
        _ body: @Sendable (Int) -> Void
    ) {
        checkNotInsidePass()
        let helpers = min(iterations, ProcessInfo.processInfo.activeProcessorCount) - 1
        guard helpers > 0 else {
            perform(iterations: iterations, body)
            return
        }
        let claims = IterationClaims(count: iterations)
        withoutActuallyEscaping(body) { body in
            let work = ThreadWork {
                asPartOfPass {
                    while let iteration = claims.next() { body(iteration) }
                }
            }
            // A thread that could not be started leaves its share to the others (the caller's among them).
            let threads = (0..<helpers).compactMap { _ in work.start(launchingWith: launch) }
            work.run()
            for thread in threads { pthread_join(thread, nil) }
        }
    }
}

/// The iterations of a pass, handed out one at a time to whichever thread asks next.
private final class IterationClaims: Sendable {
    private let claimed = Atomic<Int>(0)
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    func next() -> Int? {
        let iteration = claimed.wrappingAdd(1, ordering: .relaxed).oldValue
        return iteration < count ? iteration : nil
    }
}

/// A closure run by the caller and by threads started for it, which the caller joins before it returns.
final class ThreadWork: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }

    /// A new thread running `run`, nil when none could be started. The thread holds this object until `run` ends.
    ///
    /// `launch` starts a thread on the retained context it is given (`launchThread`, `pthread_create`, by default);
    /// when it cannot, the context is released here, so a refused thread leaks nothing.
    func start(launchingWith launch: (UnsafeMutableRawPointer) -> pthread_t? = ThreadWork.launchThread) -> pthread_t? {
        let context = Unmanaged.passRetained(self).toOpaque()
        guard let thread = launch(context) else { return Self.failed(context) }
        return thread
    }

    /// A thread started with `pthread_create` on `context` (a retained `ThreadWork`), nil when it could not be.
    static func launchThread(_ context: UnsafeMutableRawPointer) -> pthread_t? {
        #if canImport(Glibc)
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { ThreadWork.enter($0) }, context)
            return started == 0 ? thread : nil
        #else
            var created: pthread_t?
            let started = pthread_create(&created, nil, { ThreadWork.enter($0) }, context)
            return started == 0 ? created : nil
        #endif
    }

    /// A started thread's entry: runs the work its context holds and lets the context go.
    private static func enter(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        Unmanaged<ThreadWork>.fromOpaque(context).takeRetainedValue().run()
        return nil
    }

    /// The context of a thread that did not start, released; nil for `start`.
    private static func failed(_ context: UnsafeMutableRawPointer) -> pthread_t? {
        Unmanaged<ThreadWork>.fromOpaque(context).release()
        return nil
    }
}
