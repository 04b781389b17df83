import Foundation

/// Runs two independent pieces of synchronous work on two threads and returns both results. For a serial pass
/// that splits into two halves reading the same input (the site directory's lookups and its slugs and lists),
/// where the second core would otherwise wait.
///
/// Built on `concurrentPerform` (through `ParallelWork`), so neither piece may run parallel work of its own
/// (`BothAtOnce`, `ParallelArray`): GCD runs a `concurrentPerform` inside another one iteration after the other on
/// the calling thread, and a nightly's site directory lost about 50 ms that way while the other core sat idle. Run
/// such work after, as `SiteDirectory.init` makes its people; a debug build (the tests) stops at a nested pass.
enum BothAtOnce {
    static func run<First: Sendable, Second: Sendable>(
        _ first: @Sendable () -> First, _ second: @Sendable () -> Second
    ) -> (First, Second) {
        let firstResult = ChunkResults<First>(count: 1)
        let secondResult = ChunkResults<Second>(count: 1)
        ParallelWork.perform(iterations: 2) { part in
            if part == 0 {
                firstResult.set(0, .success(first()))
            } else {
                secondResult.set(0, .success(second()))
            }
        }
        var results: (First?, Second?) = (nil, nil)
        firstResult.drain { results.0 = $0 }
        secondResult.drain { results.1 = $0 }
        // Both closures return a value, so both slots are filled.
        guard let one = results.0, let two = results.1 else { preconditionFailure("concurrentPerform skipped a part") }
        return (one, two)
    }
}
