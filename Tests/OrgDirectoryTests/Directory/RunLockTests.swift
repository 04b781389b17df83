import Foundation
import TestSupport
import Testing

@testable import OrgDirectory

@Suite("Run lock")
struct RunLockTests {
    @Test("a second acquire fails at once, naming the holder's pid and start time")
    func secondAcquireFails() throws {
        let folder = try SnapshotTestFolder()
        let lock = try RunLock.acquire(in: folder.url)
        defer { lock.release() }
        do {
            _ = try RunLock.acquire(in: folder.url)
            Issue.record("expected the second acquire to fail")
        } catch {
            guard case .held(_, let holder) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(holder?.pid == getpid())
            #expect(holder?.startedAt == lock.owner.startedAt)
            let text = error.errorDescription ?? ""
            #expect(text.contains("pid \(getpid())"))
            #expect(text.contains("started "))
        }
    }

    @Test("the lock file holds the pid and start time, and release removes it")
    func releaseRemoves() throws {
        let folder = try SnapshotTestFolder()
        let lock = try RunLock.acquire(in: folder.url.appendingPathComponent("state"))
        let text = try String(contentsOf: lock.url, encoding: .utf8)
        #expect(text.hasPrefix("pid \(getpid())\nstarted "))
        #expect(lock.tookOverFrom == nil)
        lock.release()
        lock.release()  // twice is harmless
        #expect(!FileManager.default.fileExists(atPath: lock.url.path))
        let again = try RunLock.acquire(in: folder.url.appendingPathComponent("state"))
        again.release()
    }

    @Test("a lock file left by a crashed run (its process gone) is taken over")
    func staleLockTakenOver() throws {
        let folder = try SnapshotTestFolder()
        let path = folder.url.appendingPathComponent(RunLock.fileName)
        // What a run killed with SIGKILL leaves: the file, with nobody holding the flock.
        try Data("pid 999999\nstarted 2026-03-04T02:00:00Z\nhost old-host\n".utf8).write(to: path)
        let lock = try RunLock.acquire(in: folder.url)
        defer { lock.release() }
        #expect(lock.tookOverFrom?.pid == 999_999)
        #expect(lock.tookOverFrom?.host == "old-host")
        #expect(try String(contentsOf: path, encoding: .utf8).hasPrefix("pid \(getpid())\n"))
    }

    @Test("a lock held by another live process stops us; once it exits, the lock is free")
    func otherProcess() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") else { return }
        let folder = try SnapshotTestFolder()
        let path = folder.url.appendingPathComponent(RunLock.fileName)
        try Data("pid 4242\nstarted 2026-03-04T02:00:00Z\n".utf8).write(to: path)
        // A shell takes the flock with util-linux flock(1) as another orgdir would, says "ready", and holds it
        // until a release file appears.
        let release = folder.url.appendingPathComponent("release")
        let holder = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "exec 9<>\"$0\"; flock 9; echo ready; while [ ! -e \"$1\" ]; do sleep 0.05; done",
                path.path, release.path,
            ])
        defer { holder.terminate() }
        #expect(try await holder.firstLine() == "ready")
        let expected = RunLock.Owner(pid: 4242, startedAt: Date(timeIntervalSince1970: 1_772_589_600), host: nil)
        #expect(throws: RunLockError.held(path: path.path, holder: expected)) {
            try RunLock.acquire(in: folder.url)
        }
        try Data().write(to: release)
        _ = try await holder.finished()
        let lock = try RunLock.acquire(in: folder.url)
        #expect(lock.tookOverFrom?.pid == 4242)
        lock.release()
    }

    @Test("a folder that cannot be made is a clear error")
    func unavailable() throws {
        let folder = try SnapshotTestFolder()
        let blocker = folder.url.appendingPathComponent("file")
        try Data().write(to: blocker)
        #expect(throws: RunLockError.self) { try RunLock.acquire(in: blocker) }
    }
}
