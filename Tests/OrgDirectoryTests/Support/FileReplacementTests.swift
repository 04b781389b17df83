import Foundation
import Testing

@testable import OrgDirectory

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
}
