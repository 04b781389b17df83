/// Numbers that are the same on every run (a 64-bit linear congruential generator), for tests that feed
/// thousands of made-up values through two paths that must agree: a failure names a value that comes back.
public struct SeededNumbers {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The next number in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
