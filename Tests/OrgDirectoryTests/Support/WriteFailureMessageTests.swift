import Foundation
import Testing

@testable import OrgDirectory

/// What a run that cannot write says: the file, the system's reason and, for a full disk, what to do; never Swift's
/// dump of an error value. The end-to-end side is `DiskFullEndToEndTests`.
@Suite("Messages of a failed write")
struct WriteFailureMessageTests {
    @Test("a full disk or quota says to free space and why a run needs room for two sites; other errors are as given")
    func describedErrorNumbers() {
        for code in [ENOSPC, EDQUOT] {
            let text = FileDescriptorWrite.describe(code)
            #expect(text.hasPrefix(String(cString: strerror(code))), "\(text)")
            #expect(text.contains("free space on that file system and run again"), "\(text)")
            #expect(text.contains("needs room for both"), "\(text)")
        }
        #expect(FileDescriptorWrite.describe(EROFS).contains("writable file system"))
        for code in [EACCES, EISDIR, EIO] {
            #expect(FileDescriptorWrite.describe(code) == String(cString: strerror(code)))
        }
    }

    @Test("a full file system is asked about at the nearest folder that exists; inodes left mean the bytes advice")
    func fileSystemRoomAroundAMissingFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-room-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.path + "/never/made.html"
        let room = try #require(FileSystemRoom(around: missing))
        #expect(room.path == folder.path)
        #expect(!room.isOutOfFiles, "a folder this test could make has files to spare")
        #expect(FileSystemRoom(around: "/no-such-folder-\(UUID().uuidString)/a")?.path == "/")
        #expect(FileSystemRoom(around: "relative-and-missing") == nil)
        // Inodes left: ENOSPC meant bytes, and the advice says so.
        #expect(FileDescriptorWrite.describe(ENOSPC, at: missing).contains("free space on that file system"))
        // A file system without a fixed number of files is never out of them.
        #expect(!FileSystemRoom(path: "/", files: 0, freeFiles: 0).isOutOfFiles)
        #expect(FileSystemRoom(path: "/", files: 100, freeFiles: 0).isOutOfFiles)
    }

    @Test("a folder FileManager cannot make is described by its errno, with the advice; an error without one as it is")
    func foundationErrorsByTheirErrno() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-errno-\(UUID().uuidString)")
        try Data("a file, not a folder".utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inside = folder.appendingPathComponent("people")
        let error = try #require(
            throws: (any Error).self,
            performing: { try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: false) })
        #expect(FileDescriptorWrite.code(of: error) == ENOTDIR)
        #expect(FileDescriptorWrite.describe(error, at: inside.path) == String(cString: strerror(ENOTDIR)))
        #expect(FileDescriptorWrite.code(of: NSError(domain: NSPOSIXErrorDomain, code: Int(EROFS))) == EROFS)
        struct Plain: Error {}
        #expect(FileDescriptorWrite.code(of: Plain()) == nil)
        #expect(FileDescriptorWrite.describe(Plain(), at: "/x") == Plain().localizedDescription)
    }

    @Test("the output's refusal is reported by its full path and reason, not as a dump of the error value")
    func publishErrorUnwrapped() {
        let full = "/srv/.Output.staging-1-AB/search/ot/0.js"
        let written = SiteError.writing("search/ot/0.js", PublishError.cannotWrite(path: full, reason: "disk full"))
        #expect(written == .writeFailed(path: full, reason: "disk full"))
        #expect(written.errorDescription == "cannot write \(full): disk full")
        let created = SiteError.writing("people", PublishError.cannotCreate(path: "/srv/x/people", reason: "no room"))
        #expect(created == .writeFailed(path: "/srv/x/people", reason: "no room"))
    }

    @Test("a site error passes through; any other error is described by its own words under the page's path")
    func otherErrors() {
        #expect(SiteError.writing("a.html", SiteError.markdownFailed(path: "b.md")) == .markdownFailed(path: "b.md"))
        let unsafe = PublishError.unsafePath(relativePath: "../x")
        #expect(
            SiteError.writing("../x", unsafe) == .writeFailed(path: "../x", reason: unsafe.errorDescription ?? ""))
        struct Plain: Error {}
        #expect(SiteError.writing("people.csv", Plain()) == .writeFailed(path: "people.csv", reason: "\(Plain())"))
    }

    @Test("a lock another run holds exits 4; a lock file that cannot be written (a full disk) exits 73 with what to do")
    func lockExitCodes() {
        let held = BuildError.locked(.held(path: "/s/orgdir.lock", holder: nil))
        #expect(held.exitCode == ExitStatus.locked)
        let full = BuildError.locked(
            .unavailable(path: "/s/orgdir.lock", reason: FileDescriptorWrite.describe(ENOSPC)))
        #expect(full.exitCode == ExitStatus.output)
        #expect(full.errorDescription?.contains("free space on that file system") == true)
    }
}
