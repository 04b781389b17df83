import Foundation
import TestSupport
import Testing

@testable import OrgDirectory

@Suite("A mapped file")
struct MappedFileTests {
    /// 200,000 bytes that are not all alike (`multiplier` picks which), written to `name` in `folder`; returns the
    /// file's path and its bytes.
    private func patternFile(_ name: String, in folder: URL, multiplier: Int) throws -> (path: String, bytes: [UInt8]) {
        let path = folder.appendingPathComponent(name).path
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* multiplier &+ 7) }
        try Data(content).write(to: URL(fileURLWithPath: path))
        return (path, content)
    }

    @Test("pages handed back read the file again: the bytes stay the file's, in the range and around it")
    func releasedPagesReadTheFileAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, content) = try patternFile("people.csv", in: folder, multiplier: 31)
        let file = try #require(MappedFile(path: path))
        #expect(Array(file.bytes) == content)
        for range in [0..<50_000, 50_000..<50_001, 10_000..<150_000, 190_000..<250_000] {
            file.release(range)
            #expect(Array(file.bytes) == content, "after handing back \(range)")
        }
    }

    @Test("a file the system will not map is read into memory: the same bytes, which handing pages back leaves alone")
    func unmappedFileIsReadIntoMemory() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, content) = try patternFile("preparations.bin", in: folder, multiplier: 17)
        let file = try #require(MappedFile(path: path, mapping: false))
        #expect(!file.isMapping)
        #expect(Array(file.bytes) == content)
        // On a copy in memory, handing pages back would zero them: it must do nothing.
        file.release(0..<200_000)
        #expect(Array(file.bytes) == content)
        #expect(try #require(MappedFile(path: path)).isMapping, "a file the system maps is mapped")
        #expect(MappedFile(path: folder.path, mapping: false) == nil, "a folder reads as nothing")
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

    @Test("a file's data keeps its bytes when the file is replaced through a rename, as orgdir replaces files")
    func dataOutlivesReplacement() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snapshot.json")
        let content = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        try Data(content).write(to: file)
        let data = try #require(MappedFile.data(path: file.path))
        let replacement = folder.appendingPathComponent("snapshot.json.new")
        try Data("the next run's file".utf8).write(to: replacement)
        _ = rename(replacement.path, file.path)
        #expect(Array(data) == content)
        #expect(Array(data[100_000..<100_010]) == Array(content[100_000..<100_010]))
        var written = data
        written[5] = 0xFF  // into a copy: neither `data` nor the file changes
        #expect(written[5] == 0xFF && data[5] == content[5])
        let kept = folder.appendingPathComponent("kept")
        try Data(content).write(to: kept)
        var alone = try #require(MappedFile.data(path: kept.path))
        alone[7] = 0xEE  // the only holder may write in place: the page is its own
        #expect(alone[7] == 0xEE)
        #expect(try Data(contentsOf: kept)[7] == content[7], "the file is never written")
        #expect(MappedFile.data(path: folder.appendingPathComponent("missing").path) == nil)
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(MappedFile.data(path: empty.path) == nil)
    }

    #if os(Linux)
        @Test("a file that cannot be mapped is read the usual way: a /proc file, which reports no size")
        func unmappableFileIsRead() throws {
            let status = URL(fileURLWithPath: "/proc/self/status")
            #expect(MappedFile.data(path: status.path) == nil)
            let read = try SnapshotStore.read(status)
            #expect(String(decoding: read, as: UTF8.self).hasPrefix("Name:"))
            let cache = StateCacheFile("status", in: URL(fileURLWithPath: "/proc/self"))
            #expect(cache.read { String(decoding: $0, as: UTF8.self) }?.hasPrefix("Name:") == true)
            #expect(throws: SnapshotError.self) { try SnapshotStore.read(status.appendingPathExtension("missing")) }
        }

        /// The other way a file cannot be mapped: it opens and reports a size, and `mmap` itself refuses. A folder
        /// does both on Linux (`mmap` fails with ENODEV), and reading it the usual way reports why.
        @Test("something that opens with a size but cannot be mapped (a folder) is not mapped, and reading it says why")
        func mmapRefusalIsNotAMapping() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            for index in 0..<20 {
                try Data("x".utf8).write(to: folder.appendingPathComponent("file-\(index)"))
            }
            var status = stat()
            try #require(stat(folder.path, &status) == 0 && status.st_size > 0, "the folder reports a size")
            #expect(MappedFile(path: folder.path) == nil)
            #expect(MappedFile.data(path: folder.path) == nil)
            #expect(throws: (any Error).self) { try MappedFile.contents(of: folder) }
        }

        @Test("a file's data is unmapped when its last copy goes, and not before")
        func dataUnmapsWithItsLastCopy() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("render-fingerprints.txt")
            try Data(repeating: 0x61, count: 100_000).write(to: file)
            let isMapped = { () throws -> Bool in try KernelFile.text("/proc/self/maps").contains(file.path) }
            var data = MappedFile.data(path: file.path)
            try #require(data != nil)
            var copy = data
            #expect(try isMapped())
            data = nil
            #expect(try isMapped(), "a copy still holds the mapping")
            #expect(copy?.count == 100_000 && copy?.allSatisfy { $0 == 0x61 } == true)
            copy = nil
            #expect(try !isMapped())
        }
    #endif
}
