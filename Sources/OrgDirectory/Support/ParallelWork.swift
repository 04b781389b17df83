import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `DispatchQueue.concurrentPerform`, for the project's parallel passes (`performOnOwnThreads` for the one that runs
/// while Graph responses are awaited), with a check that no pass runs inside another.
///
/// Why: GCD runs a `concurrentPerform` called from inside another one iteration after the other, on the calling
/// thread. Nothing fails; a core just sits idle (a nightly's site directory lost about 50 ms that way, found only in a
/// per-thread profile). Tests run debug builds, where each iteration marks its thread as inside parallel work and a
/// pass started there stops the process with a message naming the mistake, so a nested pass fails the tests instead of
/// quietly costing a core. Release builds skip the marking.
enum ParallelWork {
    /// Runs `body` for `0..<iterations` on all cores; must not be called from inside another pass's `body`.
    static func perform(iterations: Int, _ body: @Sendable (Int) -> Void) {
        #if DEBUG
            checkNotInsidePass()
            DispatchQueue.concurrentPerform(iterations: iterations) { iteration in
                asPartOfPass { body(iteration) }
            }
        #else
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
        #endif
    }

    /// Stops a debug build when a pass is started from inside another's `body` (nothing in a release build).
    static func checkNotInsidePass() {
        #if DEBUG
            precondition(
                !isInsidePass,
                "parallel work started inside parallel work runs on one core: run it after the outer pass instead"
            )
        #endif
    }

    /// Runs `work` with this thread marked as running part of a pass in a debug build (`isInsidePass`).
    @inline(__always) static func asPartOfPass(_ work: () -> Void) {
        #if DEBUG
            let wasInside = isInsidePass
            setInsidePass(true)
            defer { setInsidePass(wasInside) }
        #endif
        work()
    }

    #if DEBUG
        /// The thread-specific slot marking a thread that runs an iteration of a pass.
        private static let insideKey: pthread_key_t = {
            var key = pthread_key_t()
            let created = pthread_key_create(&key, nil)
            precondition(created == 0, "pthread_key_create failed: \(created)")
            return key
        }()

        /// Whether this thread is running an iteration of a pass.
        static var isInsidePass: Bool { pthread_getspecific(insideKey) != nil }

        private static func setInsidePass(_ inside: Bool) {
            // Any non-nil pointer marks the thread; nothing is stored behind it.
            pthread_setspecific(insideKey, inside ? UnsafeRawPointer(bitPattern: 1) : nil)
        }
    #endif
}
