import Dispatch
import Foundation

/// Suspends until the process gets SIGINT or SIGTERM, so the server can stop cleanly.
enum SignalWaiter {
    /// Keeps the dispatch sources alive while waiting; they are only touched on creation and cancel,
    /// which DispatchSource allows from any thread.
    private final class Sources: @unchecked Sendable {
        var all: [any DispatchSourceSignal] = []

        func cancel() { all.forEach { $0.cancel() } }
    }

    /// Returns after the first SIGINT or SIGTERM.
    static func waitForTermination() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = Sources()
        let stream = AsyncStream<Int32> { continuation in
            for number in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                sources.all.append(source)
            }
        }
        for await _ in stream { break }
        sources.cancel()
    }
}
