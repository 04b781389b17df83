import Foundation
import Testing

@testable import OrgDirectory

@Suite("A mapped file")
struct MappedFileTests {
    @Test("pages handed back read the file again: the bytes stay the file's, in the range and around it")
    func releasedPagesReadTheFileAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("people.csv").path
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(content).write(to: URL(fileURLWithPath: path))
        let file = try #require(MappedFile(path: path))
        #expect(Array(file.bytes) == content)
        for range in [0..<50_000, 50_000..<50_001, 10_000..<150_000, 190_000..<250_000] {
            file.release(range)
            #expect(Array(file.bytes) == content, "after handing back \(range)")
        }
    }

    @Test("a missing or empty file is not mapped")
    func missingOrEmpty() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(MappedFile(path: folder.appendingPathComponent("missing").path) == nil)
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(MappedFile(path: empty.path) == nil)
    }
}
