import FlyingSocks
import Foundation

/// A response body that yields its first bytes and then fails, so the server, having promised the full
/// `Content-Length`, closes the connection mid-JSON: what a client sees when a connection drops.
struct TruncatedBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    /// Thrown after the partial body to make FlyingFox abandon the connection.
    struct Cut: Error {}

    let bytes: [UInt8]

    func makeAsyncIterator() -> Iterator {
        Iterator(bytes: bytes)
    }

    /// Hands out the bytes once, then throws.
    struct Iterator: AsyncBufferedIteratorProtocol {
        let bytes: [UInt8]
        var index = 0

        mutating func next() async throws -> UInt8? {
            guard index < bytes.count else { throw Cut() }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
            guard index < bytes.count else { throw Cut() }
            let end = Swift.min(bytes.count, index + Swift.max(1, count))
            defer { index = end }
            return bytes[index..<end]
        }
    }
}
