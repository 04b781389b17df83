import Foundation
import TestSupport
import Testing

@testable import OrgDirectory

/// `chattr +i`: a file that not even root can remove, until `chattr -i`. Nil where the file system or the machine has
/// no such flag (the tests that need one are then skipped).
enum ImmutableFlag {
    static func set(_ on: Bool, _ path: String) -> Bool {
        let outcome = try? ChildProcess.run(URL(fileURLWithPath: "/usr/bin/chattr"), [on ? "+i" : "-i", path])
        return outcome?.status == 0
    }

    static let available: Bool = {
        guard let base = try? temporaryFolder() else { return false }
        defer { try? FileManager.default.removeItem(at: base) }
        let probe = base.appendingPathComponent("probe")
        guard FileManager.default.createFile(atPath: probe.path, contents: nil), set(true, probe.path) else {
            return false
        }
        let refused = unlink(probe.path) != 0
        _ = set(false, probe.path)
        return refused
    }()
}

@Suite("Removing an old site")
struct TreeRemovalTests {
    @Test("a tree with nested folders, dotfiles and a large flat folder is removed completely")
    func removesEverything() throws {
        let base = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        let tree = base.appendingPathComponent("site")
        let people = tree.appendingPathComponent("people")
        let nested = tree.appendingPathComponent("search/t/deep")
        try FileManager.default.createDirectory(at: people, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        // More files than the threshold, so the unlinking is split over the cores.
        for number in 0..<(TreeRemoval.parallelThreshold + 10) {
            #expect(
                FileManager.default.createFile(
                    atPath: people.appendingPathComponent("p\(number).html").path, contents: nil))
        }
        try Data("x".utf8).write(to: nested.appendingPathComponent("0.js"))
        try Data("x".utf8).write(to: tree.appendingPathComponent(".orgdir-site"))
        try FileManager.default.createDirectory(
            at: tree.appendingPathComponent("empty"), withIntermediateDirectories: true)

        TreeRemoval.remove(tree.path)

        #expect(!FileManager.default.fileExists(atPath: tree.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty)
    }

    @Test("a symbolic link in the tree is removed, and what it points to is left alone")
    func linksAreNotFollowed() throws {
        let base = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        let outside = base.appendingPathComponent("precious")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("file.txt"))
        let tree = base.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: tree.appendingPathComponent("link"), withDestinationURL: outside)

        TreeRemoval.remove(tree.path)

        #expect(!FileManager.default.fileExists(atPath: tree.path))
        #expect(try String(contentsOf: outside.appendingPathComponent("file.txt"), encoding: .utf8) == "keep")
    }

    /// Removal is best effort (a run that published must not fail over the old site's leftovers): what cannot go
    /// stays with the folders above it, everything else goes, and `remove(_:in:)` says the entry is still there.
    @Test(
        "a file that cannot be removed stays with its folders; everything else goes; the entry is reported not gone",
        .enabled(if: ImmutableFlag.available, "needs chattr +i to make a file that cannot be removed"))
    func undeletableFile() throws {
        let base = try temporaryFolder()
        let tree = base.appendingPathComponent("site")
        let stuck = tree.appendingPathComponent("people/stuck.html")
        defer {
            _ = ImmutableFlag.set(false, stuck.path)
            try? FileManager.default.removeItem(at: base)
        }
        try FileManager.default.createDirectory(
            at: tree.appendingPathComponent("people"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: tree.appendingPathComponent("search/t"), withIntermediateDirectories: true)
        for name in ["people/a.html", "people/b.md", "search/t/0.js", "index.html"] {
            try Data("x".utf8).write(to: tree.appendingPathComponent(name))
        }
        try Data("stuck".utf8).write(to: stuck)
        #expect(ImmutableFlag.set(true, stuck.path))

        let parent = open(base.path, O_RDONLY | O_DIRECTORY)
        defer { close(parent) }
        #expect(!TreeRemoval.remove("site", in: parent))

        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.path) == ["people"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: tree.appendingPathComponent("people").path) == [
                "stuck.html"
            ])
        #expect(try String(contentsOf: stuck, encoding: .utf8) == "stuck")
    }

    @Test("a path that does not exist is left as it is, without an error")
    func missingPath() throws {
        let base = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        TreeRemoval.remove(base.appendingPathComponent("nothing-here").path)
        #expect(FileManager.default.fileExists(atPath: base.path))
    }
}
