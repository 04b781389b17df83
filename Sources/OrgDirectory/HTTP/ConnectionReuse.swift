/// Whether the next plain-HTTP request keeps its connection alive or asks for one of its own (`Connection: close`).
///
/// Why: a simple server that writes a response's headers and its body with two `send`s stalls on a kept-alive
/// connection. Nagle's algorithm holds the body until the headers are acknowledged, and the client's kernel delays that
/// acknowledgement by some 40 ms. Against such a server (the test suite's Python Graph, `independent_graph.py
/// --people 100000`), each page of the listing took about 50 ms instead of 3: a full build 37.2 s, and 7.2 s with this
/// policy (Benchmarks/README.md, 10:23 on 2026-11-29, gives the runs). `curl` fetching one page four times over one
/// connection took 4, 43, 44 and 44 ms, and 2.6–3.9 ms each with `Connection: close`.
///
/// A new connection for every request is no answer for everyone, though. It cost our own sandbox's full build 5 %
/// (`Benchmarks/ab.sh OLD NEW 4 100000`: 3.54 → 3.73 s). So connections are kept until requests show the stall's mark:
/// `stalls` of the last `window` taking a time in `stallRange` (a kernel's delayed acknowledgement is 40 ms at least;
/// not every response waits for one, so the stall shows in most requests, not all). Then `trials` requests get
/// connections of their own. If those take under half as long as the window's median, every later request does the
/// same; if not, connections are kept for good and never tried again.
/// Only plain HTTP is ever switched: it is allowed only to loopback hosts, where a connection costs microseconds.
/// HTTPS keeps its connections, since a new one there costs a TLS handshake.
actor ConnectionReuse {
    static let stallRange: ClosedRange<Duration> = .milliseconds(38) ... .milliseconds(80)
    static let window = 8
    static let stalls = 5
    static let trials = 3

    private enum Mode {
        case keeping(recent: [Duration])
        case trying(kept: [Duration], tried: [Duration])
        case closing
        case settled
    }

    private var mode = Mode.keeping(recent: [])

    /// Whether the next request should ask for a connection of its own.
    func closesNext() -> Bool {
        switch mode {
        case .keeping, .settled: false
        case .trying, .closing: true
        }
    }

    /// Notes how long a request took (sending it to the last byte of its response), and on which kind of connection
    /// (`closed`: one of its own).
    func record(_ elapsed: Duration, closed: Bool) {
        switch mode {
        case .keeping(var recent):
            guard !closed else { return }
            recent.append(elapsed)
            if recent.count > Self.window { recent.removeFirst() }
            let stalled = recent.filter { Self.stallRange.contains($0) }.count >= Self.stalls
            mode = stalled ? .trying(kept: recent, tried: []) : .keeping(recent: recent)
        case .trying(let kept, var tried):
            guard closed else { return }
            tried.append(elapsed)
            guard tried.count >= Self.trials else {
                mode = .trying(kept: kept, tried: tried)
                return
            }
            mode = Self.median(tried) * 2 < Self.median(kept) ? .closing : .settled
        case .closing, .settled:
            return
        }
    }

    private static func median(_ durations: [Duration]) -> Duration {
        let sorted = durations.sorted()
        return sorted[sorted.count / 2]
    }
}
