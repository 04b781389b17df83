import Foundation
import Testing

@testable import OrgDirectory

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

    @Test("a path that does not exist is left as it is, without an error")
    func missingPath() throws {
        let base = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        TreeRemoval.remove(base.appendingPathComponent("nothing-here").path)
        #expect(FileManager.default.fileExists(atPath: base.path))
    }
}
