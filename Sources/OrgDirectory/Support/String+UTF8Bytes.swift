extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place for a native string, with no copy and no retain (a copy
    /// of the string to call the mutating `withUTF8` retained and released it, and the hot loops read strings that
    /// other cores read at the same time, where every retain contends for the string's reference count).
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}
