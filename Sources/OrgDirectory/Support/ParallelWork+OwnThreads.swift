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
    /// schedules the round's few milliseconds of work beside it.
    ///
    /// Like `perform`, it must not be called from inside another pass's `body` (a debug build stops there).
    static func performOnOwnThreads(iterations: Int, _ body: @Sendable (Int) -> Void) {
        #if DEBUG
            precondition(
                !isInsidePass,
                "parallel work started inside parallel work runs on one core: run it after the outer pass instead"
            )
        #endif
        let helpers = min(iterations, ProcessInfo.processInfo.activeProcessorCount) - 1
        guard helpers > 0 else {
            perform(iterations: iterations, body)
            return
        }
        let claims = IterationClaims(count: iterations)
        withoutActuallyEscaping(body) { body in
            let work = ThreadWork {
                #if DEBUG
                    let wasInside = isInsidePass
                    setInsidePass(true)
                    defer { setInsidePass(wasInside) }
                #endif
                while let iteration = claims.next() { body(iteration) }
            }
            var threads: [pthread_t] = []
            for _ in 0..<helpers {
                if let thread = work.start() { threads.append(thread) }
            }
            work.run()
            for thread in threads { pthread_join(thread, nil) }
        }
    }
}

/// The iterations of a pass, handed out one at a time to whichever thread asks next.
private final class IterationClaims: Sendable {
    private let claimed = Mutex(0)
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    func next() -> Int? {
        claimed.withLock { claimed in
            guard claimed < count else { return nil }
            defer { claimed += 1 }
            return claimed
        }
    }
}

/// A closure run by the caller and by threads started for it, which the caller joins before it returns.
private final class ThreadWork: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }

    /// A new thread running `run`, nil when none could be started (the others then do its share).
    func start() -> pthread_t? {
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
            let started = pthread_create(
                &thread, nil,
                { context in
                    guard let context else { return nil }
                    Unmanaged<ThreadWork>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, context)
            guard started == 0 else {
                Unmanaged<ThreadWork>.fromOpaque(context).release()
                return nil
            }
            return thread
        #else
            var thread: pthread_t?
            let started = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<ThreadWork>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, context)
            guard started == 0, let thread else {
                Unmanaged<ThreadWork>.fromOpaque(context).release()
                return nil
            }
            return thread
        #endif
    }
}
