import Foundation
import Testing

@testable import OrgDirectory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Copying a file through the kernel")
struct FileCopyTests {
    @Test("a copy is refused over an existing file, from a link, a folder or a FIFO, and a failed copy leaves nothing")
    func copyRefusals() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source").path
        let target = folder.appendingPathComponent("target").path
        try Data("bytes".utf8).write(to: URL(fileURLWithPath: source))
        try Data("kept".utf8).write(to: URL(fileURLWithPath: target))
        #expect(!FileCopy.copy(source, to: target))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("kept".utf8))
        let link = folder.appendingPathComponent("link").path
        #expect(symlink(source, link) == 0)
        #expect(!FileCopy.copy(link, to: folder.appendingPathComponent("from-link").path))
        #expect(!FileCopy.copy(folder.path, to: folder.appendingPathComponent("from-folder").path))
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(!FileCopy.copy(fifo, to: folder.appendingPathComponent("from-fifo").path), "refused, never waited on")
        #expect(!FileCopy.copy(source, to: folder.appendingPathComponent("no-such-folder/copy").path))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["fifo", "link", "source", "target"], "no copy left behind by a refused one")
        #expect(FileCopy.copy(source, to: folder.appendingPathComponent("copy").path))
        #expect(try Data(contentsOf: folder.appendingPathComponent("copy")) == Data("bytes".utf8))
    }
}
