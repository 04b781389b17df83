import Foundation
import Testing

@testable import OrgDirectory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Replacing a file whole")
struct FileReplacementTests {
    @Test("the new bytes replace the old ones with the mode asked for, synced or not, and nothing is left beside")
    func replaces() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("cache.bin")
        try Data("old".utf8).write(to: target)
        try FileReplacement.replace(target, with: Array("new bytes".utf8), mode: 0o600, sync: true)
        #expect(try Data(contentsOf: target) == Data("new bytes".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600, "a new file, made with the mode asked for")
        try FileReplacement.replace(target, with: [UInt8](), mode: 0o644, sync: false)
        #expect(try Data(contentsOf: target).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cache.bin"])
    }

    @Test("a target that cannot be replaced fails naming it and the system's reason, and leaves it as it was")
    func failsCleanly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("in-the-way")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("kept".utf8).write(to: target.appendingPathComponent("inside"))
        let failure = #expect(throws: FileReplacement.Failure.self) {
            try FileReplacement.replace(target, with: Array("x".utf8), mode: 0o644, sync: false)
        }
        #expect(failure?.errorDescription == "cannot write \(target.path): Is a directory")
        #expect(try Data(contentsOf: target.appendingPathComponent("inside")) == Data("kept".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["in-the-way"])

        let missing = folder.appendingPathComponent("no-such-folder/cache.bin")
        let creating = #expect(throws: FileReplacement.Failure.self) {
            try FileReplacement.replace(missing, with: Array("x".utf8), mode: 0o644, sync: false)
        }
        #expect(creating?.creating == true)
        #expect(creating?.errorDescription?.hasSuffix(": No such file or directory") == true)
    }

    @Test("a spare copy is made only where there is none; the next recycling replacement writes over that copy")
    func spareCopyKeptForTheNextReplacement() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("rows.bin")
        let spare = FileReplacement.spare(of: target)
        #expect(!FileReplacement.keepSpareCopy(of: target), "no file, no copy")
        #expect(!FileManager.default.fileExists(atPath: spare.path))
        let large = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(large).write(to: target)
        #expect(FileReplacement.keepSpareCopy(of: target))
        #expect(try Data(contentsOf: spare) == Data(large), "more than one piece of the copy, every byte")
        try Data("other".utf8).write(to: spare)
        #expect(!FileReplacement.keepSpareCopy(of: target), "a spare there already is left as it is")
        #expect(try Data(contentsOf: spare) == Data("other".utf8))
        var before = stat()
        #expect(lstat(spare.path, &before) == 0)
        try FileReplacement.replace(target, with: Array("new".utf8), mode: 0o644, sync: false, recycling: true)
        var after = stat()
        #expect(lstat(target.path, &after) == 0 && after.st_ino == before.st_ino, "the spare was written over")
        #expect(try Data(contentsOf: target) == Data("new".utf8))
        #expect(try Data(contentsOf: spare) == Data(large))
    }

    @Test("a prepared replacement leaves the target as it was until committed; discarded, nothing of it is left")
    func preparedThenCommittedOrDiscarded() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("tokens.bin")
        try FileReplacement.replace(target, with: Array("one".utf8), mode: 0o644, sync: false, recycling: true)
        try FileReplacement.replace(target, with: Array("two".utf8), mode: 0o644, sync: false, recycling: true)
        let contents: FileReplacement.Contents = { write in
            let bytes = Array("three".utf8)
            return (bytes.count, bytes.withUnsafeBytes(write))
        }
        let dropped = try FileReplacement.prepare(target, mode: 0o644, sync: false, recycling: true, contents: contents)
        #expect(try Data(contentsOf: target) == Data("two".utf8), "untouched while the site is published")
        dropped.discard()
        #expect(try Data(contentsOf: target) == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tokens.bin"])

        let kept = try FileReplacement.prepare(target, mode: 0o644, sync: true, recycling: true, contents: contents)
        #expect(try Data(contentsOf: target) == Data("two".utf8))
        try kept.commit()
        #expect(try Data(contentsOf: target) == Data("three".utf8))
    }

    @Test("recycling writes over the contents before last, cut to length, and keeps the ones it replaces as the spare")
    func recycles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("rows.bin")
        let spare = FileReplacement.spare(of: target)
        try FileReplacement.replace(
            target, with: Array("first, the longest".utf8), mode: 0o644, sync: false, recycling: true)
        #expect(try Data(contentsOf: target) == Data("first, the longest".utf8))
        #expect(!FileManager.default.fileExists(atPath: spare.path), "a first replacement has nothing to keep")
        // A reader of the current file (a run maps it) keeps reading the same bytes after the replacement.
        let reader = try FileHandle(forReadingFrom: target)
        defer { try? reader.close() }
        try FileReplacement.replace(target, with: Array("second".utf8), mode: 0o644, sync: false, recycling: true)
        #expect(try Data(contentsOf: target) == Data("second".utf8))
        #expect(try Data(contentsOf: spare) == Data("first, the longest".utf8))
        #expect(try reader.readToEnd() == Data("first, the longest".utf8))
        // The third is written over the spare: the first contents' file, which the reader still has open.
        try FileReplacement.replace(
            target, with: Array("third".utf8), then: [Array("!".utf8)], mode: 0o644, sync: false, recycling: true)
        #expect(try Data(contentsOf: target) == Data("third!".utf8))
        #expect(try Data(contentsOf: spare) == Data("second".utf8))
        try reader.seek(toOffset: 0)
        #expect(try reader.readToEnd() == Data("third!".utf8), "written over in place and cut to the new length")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                ".rows.bin.spare", "rows.bin",
            ])
        FileReplacement.remove(target)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the spare goes with the file")
    }

    @Test("recycling never writes through a spare that is linked elsewhere, a symbolic link or a FIFO")
    func recyclingReplacesOddSpares() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("tokens.bin")
        let spare = FileReplacement.spare(of: target)
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try Data("keep me".utf8).write(to: elsewhere)
        for make in ["link", "symlink", "fifo"] {
            FileReplacement.remove(target)
            switch make {
            case "link": try FileManager.default.linkItem(at: elsewhere, to: spare)
            case "symlink": try FileManager.default.createSymbolicLink(at: spare, withDestinationURL: elsewhere)
            default: #expect(mkfifo(spare.path, 0o644) == 0)
            }
            try FileReplacement.replace(target, with: Array(make.utf8), mode: 0o644, sync: false, recycling: true)
            #expect(try Data(contentsOf: target) == Data(make.utf8), "\(make)")
            #expect(try Data(contentsOf: elsewhere) == Data("keep me".utf8), "\(make): written through")
            #expect(!FileManager.default.fileExists(atPath: spare.path), "\(make): there was no file to keep")
        }
    }

    @Test("a folder at the spare's name is left alone: the file is replaced the usual way, and removing it takes both")
    func folderAtTheSparesName() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("rows.bin")
        let spare = FileReplacement.spare(of: target)
        try FileManager.default.createDirectory(at: spare, withIntermediateDirectories: false)
        try Data("inside".utf8).write(to: spare.appendingPathComponent("file"))
        try Data("old".utf8).write(to: target)
        try FileReplacement.replace(target, with: Array("new".utf8), mode: 0o644, sync: false, recycling: true)
        #expect(try Data(contentsOf: target) == Data("new".utf8))
        #expect(try Data(contentsOf: spare.appendingPathComponent("file")) == Data("inside".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                ".rows.bin.spare", "rows.bin",
            ])
        FileReplacement.remove(target)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
