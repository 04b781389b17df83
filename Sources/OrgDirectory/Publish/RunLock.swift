import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes sure only one orgdir run at a time works on a state folder.
///
/// The lock is `orgdir.lock` in the state folder, held with `flock(2)` and holding the owner's pid, start time
/// and host for messages. Why `flock` rather than "create with O_EXCL, check the pid": the kernel drops a
/// `flock` the moment its process dies, however it dies, so a crashed run's lock is free at once; and there is
/// no guessing from a pid that the system may since have given to another process, and no race between two
/// runs both deciding the same stale lock is theirs. A lock file left by a crashed run is simply taken over
/// (`tookOverFrom` says whose it was).
public final class RunLock: @unchecked Sendable {
    // @unchecked: `descriptor` is only read or changed under `mutex`.
    /// The lock file.
    public let url: URL
    /// Who holds the lock: this process.
    public let owner: Owner
    /// The owner recorded in a lock file left behind by a run that is gone, when this lock replaced one.
    public let tookOverFrom: Owner?
    private var descriptor: Int32
    private let mutex = NSLock()

    /// The lock file's name inside the state folder.
    public static let fileName = "orgdir.lock"

    private init(url: URL, owner: Owner, tookOverFrom: Owner?, descriptor: Int32) {
        self.url = url
        self.owner = owner
        self.tookOverFrom = tookOverFrom
        self.descriptor = descriptor
    }

    deinit {
        release()
    }

    /// Takes the lock in `folder` (created if missing), or throws `.held` naming the run that has it.
    /// Never waits: a nightly job that finds another run still going should say so and stop. Keep the returned
    /// lock for the whole run (and `release()` it at the end): dropping it releases the lock.
    public static func acquire(in folder: URL) throws(RunLockError) -> RunLock {
        let url = folder.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            let reason = FileDescriptorWrite.code(of: error).map { Self.reason($0, at: folder.path) }
            throw .unavailable(path: url.path, reason: reason ?? error.localizedDescription + checkTheStateKey)
        }
        // A few rounds, because a run releasing the lock deletes the file we may have just opened.
        for _ in 0..<20 {
            let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let code = errno
                throw .unavailable(path: url.path, reason: reason(code, at: url.path))
            }
            guard lockWithoutWaiting(descriptor) else {
                let failure = errno
                let holder = Owner(parsing: readAll(descriptor))
                close(descriptor)
                if failure == EWOULDBLOCK || failure == EAGAIN {
                    throw .held(path: url.path, holder: holder)
                }
                throw .unavailable(path: url.path, reason: "flock: " + reason(failure, at: url.path))
            }
            guard isStillAtPath(descriptor, url.path) else {
                close(descriptor)
                continue
            }
            let previous = Owner(parsing: readAll(descriptor))
            let owner = Owner.current()
            let text = Array(owner.fileText.utf8)
            let written =
                ftruncate(descriptor, 0) == 0
                && text.withUnsafeBytes {
                    pwrite(descriptor, $0.baseAddress, $0.count, 0) == $0.count
                }
            guard written else {
                let reason = Self.reason(errno, at: url.path)
                close(descriptor)
                throw .unavailable(path: url.path, reason: reason)
            }
            fsync(descriptor)
            return RunLock(url: url, owner: owner, tookOverFrom: previous, descriptor: descriptor)
        }
        throw .unavailable(path: url.path, reason: "the lock file kept being replaced while taking it")
    }

    /// Deletes the lock file and lets go. Safe to call twice; also done when the lock is deallocated.
    public func release() {
        mutex.lock()
        defer { mutex.unlock() }
        guard descriptor >= 0 else { return }
        // Unlink while still holding the lock: anyone who opened this file meanwhile sees it is gone and retries.
        unlink(url.path)
        close(descriptor)
        descriptor = -1
    }

    private static func lockWithoutWaiting(_ descriptor: Int32) -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Whether the open file is still the one the path names (it was not unlinked by a releasing run).
    private static func isStillAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    /// The lock file's text (small), read without moving the file offset.
    private static func readAll(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    /// An `errno`'s text for a lock file that cannot be made or written, with what to do: the advice for a full or
    /// read-only disk (`FileDescriptorWrite.advice`), else look at where the state folder is.
    private static func reason(_ code: Int32, at path: String) -> String {
        FileDescriptorWrite.advice(code) == nil
            ? String(cString: strerror(code)) + checkTheStateKey : FileDescriptorWrite.describe(code, at: path)
    }

    private static let checkTheStateKey = " (check the plist's 'state' key)"

    /// The run recorded in a lock file.
    public struct Owner: Sendable, Equatable {
        public var pid: Int32
        public var startedAt: Date?
        public var host: String?

        public init(pid: Int32, startedAt: Date?, host: String?) {
            self.pid = pid
            self.startedAt = startedAt
            self.host = host
        }

        /// This process, now.
        static func current() -> Owner {
            Owner(
                pid: getpid(), startedAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
                host: ProcessInfo.processInfo.hostName)
        }

        /// `pid 123` / `started 2026-03-04T02:00:00Z` / `host name` lines; nil when there is no pid.
        init?(parsing text: String) {
            var pid: Int32?
            var startedAt: Date?
            var host: String?
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                switch parts[0] {
                case "pid": pid = Int32(parts[1])
                case "started": startedAt = ISO8601DateFormatter().date(from: parts[1])
                case "host": host = parts[1]
                default: continue
                }
            }
            guard let pid else { return nil }
            self.init(pid: pid, startedAt: startedAt, host: host)
        }

        var fileText: String {
            var text = "pid \(pid)\n"
            if let startedAt { text += "started \(ISO8601DateFormatter().string(from: startedAt))\n" }
            if let host { text += "host \(host)\n" }
            return text
        }

        /// "pid 123 on host, started 2026-03-04T02:00:00Z".
        public var description: String {
            var text = "pid \(pid)"
            if let host { text += " on \(host)" }
            if let startedAt { text += ", started \(ISO8601DateFormatter().string(from: startedAt))" }
            return text
        }
    }
}

/// Why the run lock could not be taken.
public enum RunLockError: Error, Sendable, Equatable, LocalizedError {
    /// Another run holds the lock; `holder` is what its lock file says (nil if it has not written it yet).
    case held(path: String, holder: RunLock.Owner?)
    /// The lock file cannot be created, locked or written.
    case unavailable(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .held(let path, let holder):
            let who = holder.map { "(\($0.description)) " } ?? ""
            return "another orgdir run \(who)is using this state folder; it holds \(path). Wait for it to "
                + "finish. A run that crashed releases the lock by itself, so there is no file to delete."
        case .unavailable(let path, let reason):
            return "\(path): cannot take the run lock: \(reason)"
        }
    }
}
