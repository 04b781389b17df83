import Foundation

/// Files of `/proc`, read to their end.
///
/// They report a size of 0, and `String(contentsOfFile:)` then returns only the start of a long one: a test
/// process's `/proc/self/maps` runs to hundreds of kilobytes, and what it lists late (the C library, a file mapped
/// by the test) was missing from what came back.
public enum KernelFile {
    /// The whole text of the file at `path`, read in pieces until the end.
    public static func text(_ path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var bytes = Data()
        while let piece = try handle.read(upToCount: 1 << 16), !piece.isEmpty { bytes.append(piece) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
