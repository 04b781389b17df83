extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place for a native string, with no copy (a copy of the string
    /// to call the mutating `withUTF8` retained and released it). The storage is still retained around `body`;
    /// reading it through `utf8Span` instead, which borrows, took those retains off the profile of a nightly run but
    /// not its time: the first touch of each cold string moved to the copy of its bytes (2026-11-27,
    /// `Benchmarks/profile-ab.sh OLD NEW 3`).
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}
