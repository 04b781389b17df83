import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder beside the output where a whole new site is built before it is swapped in.
///
/// A file whose bytes equal the published one is hard-linked instead of written, so an unchanged page keeps
/// its modification time (web servers, rsync and caches see no change), and a rebuild with no directory change
/// rewrites nothing. Safe to use from many tasks at once.
///
/// A *recycled* staging folder is the site published before the current one (the publisher's spare), updated in
/// place: its files may be stale, so every write and carry-over replaces what is at the path (unlink, then
/// create or link: never a truncation, since a file may be a hard link into the published site), files the
/// caller knows to be current stay untouched (`keepInPlace`), and files the new site no longer has are swept
/// away at the end (`removeStale`). The spare of an output that is gone or emptied is taken the same way by a first
/// build (`holdsEarlierFiles`, not `isRecycled`): written over, and swept of whatever the build does not write.
///
/// A staging folder that *holds changes only* (`holdsChangesOnly`, see `StagingDirectory+Changes.swift`) starts empty
/// and receives only the files whose bytes differ from the published ones; the files to delete are noted, not
/// removed. `SitePublisher.publishChanges` then moves those files into the published folder under a journal.
public final class StagingDirectory: Sendable {
    /// Where the new site is being built.
    public let root: URL
    /// The site currently published, for comparisons; nil on a first run.
    let previous: URL?
    /// True when `root` started as an earlier site, updated in place against the published one (see the type's
    /// notes).
    public let isRecycled: Bool
    /// True when `root` started as an earlier site rather than empty: a recycled folder, or the spare of an output
    /// that is gone, which a first build writes over instead of removing (`SitePublisher.makeStaging`). Its files
    /// are written over or replaced, never trusted, and what this run does not write is swept away.
    public let holdsEarlierFiles: Bool
    /// True when this folder receives only the files that differ from the published site, which stays where it is
    /// until `SitePublisher.publishChanges` moves them in (see the type's notes).
    public let holdsChangesOnly: Bool
    let state = Mutex(StagingState())

    /// `root` and `previous` as file-system paths, computed once for the many writes.
    let rootPath: String
    let previousPath: String?

    /// `recycled`: `root` starts as an earlier site; `againstPublished`: one whose files the published site's
    /// fingerprints describe (the spare), not an orphaned spare whose output is gone or was emptied.
    /// `changesOnly`: a folder that receives only what differs from `previous` (which must be given); with
    /// `recycled`, it starts holding the files an earlier update replaced, whose pages its writes reuse.
    init(root: URL, previous: URL?, recycled: Bool = false, againstPublished: Bool = true, changesOnly: Bool = false) {
        self.root = root
        self.previous = previous
        self.isRecycled = recycled && previous != nil && againstPublished && !changesOnly
        self.holdsEarlierFiles = recycled
        self.holdsChangesOnly = changesOnly && previous != nil
        self.rootPath = root.standardizedFileURL.path
        self.previousPath = previous?.standardizedFileURL.path
    }

    deinit {
        state.withLock { state in
            for handles in state.folders.values {
                close(handles.staging)
                if let previous = handles.previous { close(previous) }
            }
        }
    }

    /// How many files were written new and how many were carried over unchanged.
    public var counts: (written: Int, unchanged: Int) {
        state.withLock { ($0.written, $0.unchanged) }
    }

    /// Writes one file of the new site at a relative path such as `people/ada.html`.
    ///
    /// Files are opened and linked relative to descriptors of their folders (`openat`, `linkat`): the kernel's
    /// walk of the whole path for each of some 300,000 files a run was a large share of the time spent there.
    public func write(_ bytes: [UInt8], to relativePath: String) throws(PublishError) {
        let folder = try Self.parentFolder(of: relativePath)
        let handles = try folderHandles(folder)
        let nameOffset = folder.isEmpty ? 0 : folder.utf8.count + 1
        let unchanged = relativePath.withCString { path in
            let name = path + nameOffset
            guard let previous = handles.previous else { return false }
            guard Self.contentEquals(folder: previous, name: name, bytes: bytes) else { return false }
            // A folder of changes leaves the published file where it is.
            return holdsChangesOnly ? true : linkPublished(name, from: previous, to: handles.staging)
        }
        if unchanged {
            if holdsChangesOnly {
                settleUnchanged(relativePath, in: handles, nameOffset: nameOffset)
            } else {
                state.withLock { $0.unchanged += 1 }
            }
            return
        }
        let file = try openForWriting(relativePath, in: handles, nameOffset: nameOffset)
        defer { close(file.descriptor) }
        try Self.writeAll(bytes, to: file.descriptor, path: rootPath + "/" + relativePath)
        if let overwritten = file.overwritten {
            try Self.cut(overwritten, to: bytes.count, path: rootPath + "/" + relativePath)
        }
        countWritten(relativePath)
    }

    /// The file at `relativePath` (in the folder open as `handles`, its name at `nameOffset`) opened for the new
    /// site's bytes, and the file written over when it is one.
    ///
    /// A file already at the path (a page written again after a prerender, or any page of a folder that holds an
    /// earlier site's files) may be a hard link into the published site: it is replaced, never truncated, so the
    /// published file cannot change through it. Only such a folder's own file, with no other link, is written over
    /// in place (`OverwritableFile`): a nightly run writes some 6,700 of the spare's files again (the list pages, the
    /// search files, the exports, the changed people), and removed and created again each took a new inode and a new
    /// entry in folders of up to 300,000 (`unlinkat` was 5 % of a nightly's samples; 6,000 such files took 78 ms
    /// removed and created, 42 ms emptied in place, `Benchmarks/rewrite/rewrite.c`) and fresh pages.
    private func openForWriting(_ relativePath: String, in handles: FolderHandles, nameOffset: Int)
        throws(PublishError) -> (descriptor: Int32, overwritten: OverwritableFile?)
    {
        var replaced = false
        var overwritten: OverwritableFile?
        let descriptor = relativePath.withCString { path in
            let name = path + nameOffset
            if holdsEarlierFiles, let existing = OverwritableFile.open(name, in: handles.staging) {
                overwritten = existing
                return existing.descriptor
            }
            let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
            let first = openat(handles.staging, name, flags, 0o644)
            guard first < 0, errno == EEXIST else { return first }
            if holdsEarlierFiles {
                // The earlier site's entry: not counted, so replaced without touching the counts. A folder there (a
                // site of another layout) goes whole.
                if unlinkat(handles.staging, name, 0) != 0 {
                    let code = errno
                    guard
                        code == ENOENT
                            || ((code == EISDIR || code == EPERM) && TreeRemoval.remove(name, in: handles.staging))
                    else { return -1 }
                }
                return openat(handles.staging, name, flags, 0o644)
            }
            replaced = true
            return -1
        }
        if replaced {
            try remove(relativePath)  // this run's own file, counted: `remove` takes it off the counts
            return try openForWriting(relativePath, in: handles, nameOffset: nameOffset)
        }
        guard descriptor >= 0 else {
            throw .writeFailure(errno, at: rootPath + "/" + relativePath)
        }
        return (descriptor, overwritten)
    }

    /// Cuts a file written over in place (`OverwritableFile`) to the `newSize` bytes just written.
    private static func cut(_ file: OverwritableFile, to newSize: Int, path: @autoclosure () -> String)
        throws(PublishError)
    {
        if let code = file.cut(to: newSize) {
            throw .writeFailure(code, at: path())
        }
    }

    /// Writes one large file of the new site from pieces, never holding it whole; when the finished file
    /// equals the published one it is replaced by a hard link to it, as `write` does for small files.
    public func write(
        to relativePath: String, pieces produce: (_ emit: @escaping ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        let target = rootPath + "/" + relativePath
        let folder = try Self.parentFolder(of: relativePath)
        let nameOffset = folder.isEmpty ? 0 : folder.utf8.count + 1
        let (descriptor, overwritten) = try openForWriting(
            relativePath, in: try folderHandles(folder), nameOffset: nameOffset)
        do {
            var size = 0
            try produce { piece throws(PublishError) in
                try Self.writeAll(piece, to: descriptor, path: target)
                size += piece.count
            }
            if let overwritten { try Self.cut(overwritten, to: size, path: target) }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else {
            throw PublishError.writeFailure(errno, at: target)
        }
        if let previousPath {
            let old = previousPath + "/" + relativePath
            if holdsChangesOnly {
                // The published file stays; nothing of this run's is left at the path.
                if Self.filesEqual(old, target), unlink(target) == 0 {
                    countUnchanged(relativePath)
                    return
                }
            } else if Self.filesEqual(old, target), unlink(target) == 0, link(old, target) == 0 {
                state.withLock { $0.unchanged += 1 }
                return
            }
        }
        countWritten(relativePath)
    }

    /// Hard-links the published files at `relativePaths` into the new site, all or none: a person whose inputs
    /// did not change keeps their files (and modification times) without being rendered. Nothing is left
    /// linked on failure, so a later `write` to the same path never truncates a published file through a link.
    public func carryOver(_ relativePaths: [String]) -> Bool {
        guard previousPath != nil else { return false }
        if holdsChangesOnly { return keepPublished(relativePaths) }
        var linked: [(folder: Int32, path: String, nameOffset: Int)] = []
        for relativePath in relativePaths {
            guard let folder = try? Self.parentFolder(of: relativePath),
                let handles = try? folderHandles(folder), let previous = handles.previous
            else {
                undo(linked)
                return false
            }
            let nameOffset = folder.isEmpty ? 0 : folder.utf8.count + 1
            let done = relativePath.withCString { path in
                linkPublished(path + nameOffset, from: previous, to: handles.staging)
            }
            guard done else {
                undo(linked)
                return false
            }
            linked.append((handles.staging, relativePath, nameOffset))
        }
        state.withLock { $0.unchanged += linked.count }
        return true
    }

    /// Removes a file of the new site written or carried over earlier in this run, and takes it off the counts.
    public func remove(_ relativePath: String) throws(PublishError) {
        let folder = try Self.parentFolder(of: relativePath)
        if holdsChangesOnly {
            let nameOffset = folder.isEmpty ? 0 : folder.utf8.count + 1
            try removeChange(relativePath, in: try folderHandles(folder), nameOffset: nameOffset)
            return
        }
        let handles = try folderHandles(folder)
        let nameOffset = folder.isEmpty ? 0 : folder.utf8.count + 1
        // The error number is taken right after the call that failed, before anything else can change it.
        let outcome: Result<Bool, Errno> = relativePath.withCString { path in
            var info = stat()
            guard fstatat(handles.staging, path + nameOffset, &info, AT_SYMLINK_NOFOLLOW) == 0,
                unlinkat(handles.staging, path + nameOffset, 0) == 0
            else { return .failure(Errno(code: errno)) }
            return .success(info.st_nlink > 1)
        }
        let linked: Bool
        switch outcome {
        case .success(let value): linked = value
        case .failure(let error) where error.code == ENOENT: return
        case .failure(let error):
            throw .writeFailure(error.code, at: rootPath + "/" + relativePath)
        }
        // In a folder holding an earlier site's files the file may be one of those, which were never counted.
        if holdsEarlierFiles { return }
        state.withLock { state in
            if linked { state.unchanged -= 1 } else { state.written -= 1 }
        }
    }

    /// Hard-links `name` of the published folder `previous` into the staging folder `staging`. A recycled folder's
    /// own file at that name goes first (when it is not already that very file), since `linkat` never replaces.
    private func linkPublished(_ name: UnsafePointer<CChar>, from previous: Int32, to staging: Int32) -> Bool {
        if isRecycled {
            var published = stat()
            var present = stat()
            if fstatat(staging, name, &present, AT_SYMLINK_NOFOLLOW) == 0 {
                if fstatat(previous, name, &published, AT_SYMLINK_NOFOLLOW) == 0, published.st_ino == present.st_ino,
                    published.st_dev == present.st_dev
                {
                    return true
                }
                guard unlinkat(staging, name, 0) == 0 else { return false }
            }
        }
        return linkat(previous, name, staging, name, 0) == 0
    }

    /// Removes links `carryOver` made before one of its files failed.
    private func undo(_ linked: [(folder: Int32, path: String, nameOffset: Int)]) {
        for entry in linked {
            _ = entry.path.withCString { path in unlinkat(entry.folder, path + entry.nameOffset, 0) }
        }
    }

    /// The folder part of `relativePath` ("" at the top); refuses anything that could escape the root (empty,
    /// absolute, `.` or `..` or empty components, NUL). One pass over the bytes: every written and every carried
    /// over file (some 300,000 a run) goes through it.
    static func parentFolder(of relativePath: String) throws(PublishError) -> Substring {
        guard let folder = safeParentFolder(of: relativePath) else { throw .unsafePath(relativePath: relativePath) }
        return folder
    }

    /// Read as one buffer of bytes: walking the `utf8` view index by index took 63 of the 150 samples that
    /// `write(_:to:)` spent outside the kernel in a 100,000-person build (perf at 999 Hz).
    private static func safeParentFolder(of relativePath: String) -> Substring? {
        let (safe, lastSlash) = relativePath.withUTF8Bytes { bytes -> (Bool, Int?) in
            let slash = UInt8(ascii: "/")
            let dot = UInt8(ascii: ".")
            guard let first = bytes.first, first != slash else { return (false, nil) }
            var componentStart = 0
            var lastSlash: Int?
            // Not empty, not "." and not "..".
            func componentIsSafe(_ end: Int) -> Bool {
                switch end - componentStart {
                case 0: false
                case 1: bytes[componentStart] != dot
                case 2: bytes[componentStart] != dot || bytes[componentStart + 1] != dot
                default: true
                }
            }
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == 0 { return (false, nil) }
                if byte == slash {
                    guard componentIsSafe(index) else { return (false, nil) }
                    lastSlash = index
                    componentStart = index + 1
                }
            }
            return (componentIsSafe(bytes.count), lastSlash)
        }
        guard safe else { return nil }
        guard let lastSlash else { return "" }
        return relativePath[..<relativePath.utf8.index(relativePath.utf8.startIndex, offsetBy: lastSlash)]
    }

    /// Copies top-level dotfiles of the published site (`.htaccess`, `.gitkeep`…) into the new one; a folder that
    /// holds an earlier site's files has its own dotfiles replaced by the published ones, or removed when there are
    /// none (or no published site: an `.htaccess` deleted with the output must not come back from its spare).
    func carryOverDotfiles(except skipped: Set<String>) {
        let names = previous.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) }
        if previous != nil && names == nil { return }
        if holdsEarlierFiles, let present = try? FileManager.default.contentsOfDirectory(atPath: rootPath) {
            for name in present where name.hasPrefix(".") && !skipped.contains(name) {
                var info = stat()
                let path = root.appendingPathComponent(name).path
                guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { continue }
                unlink(path)
            }
        }
        guard let previous, let names else { return }
        let published = Set(names.filter { $0.hasPrefix(".") && !skipped.contains($0) })
        for name in published {
            let source = previous.appendingPathComponent(name).path
            var info = stat()
            guard lstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            _ = link(source, root.appendingPathComponent(name).path)
        }
    }

    /// Open descriptors of `folder` in the staging tree (created when missing) and in the published site (nil
    /// when it has no such folder), opened once and kept until the staging folder goes away.
    func folderHandles(_ folder: Substring) throws(PublishError) -> FolderHandles {
        let key = String(folder)
        if let known = state.withLock({ $0.folders[key] }) { return known }
        let path = folder.isEmpty ? rootPath : rootPath + "/" + folder
        if holdsEarlierFiles { clearNonFolders(along: folder) }
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path, isDirectory: true), withIntermediateDirectories: true)
        } catch {
            throw .createFailure(error, at: path)
        }
        let staging = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard staging >= 0 else { throw .createFailure(errno, at: path) }
        var previous: Int32?
        if let previousPath {
            let descriptor = open(
                folder.isEmpty ? previousPath : previousPath + "/" + folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 { previous = descriptor }
        }
        let handles = FolderHandles(staging: staging, previous: previous)
        // Another task may have opened the same folder meanwhile: keep the first, close ours.
        let kept = state.withLock { state in
            if let existing = state.folders[key] { return existing }
            state.folders[key] = handles
            return handles
        }
        if kept.staging != staging {
            close(staging)
            if let previous { close(previous) }
        }
        return kept
    }

    /// Removes whatever is not a real folder at each step of `folder` in a folder holding an earlier site's files: a
    /// file of another layout where this site has a folder, or a symbolic link, which the folder's creation would
    /// otherwise follow out of the staging folder.
    private func clearNonFolders(along folder: Substring) {
        var path = rootPath
        for component in folder.split(separator: "/") {
            path += "/" + component
            var info = stat()
            if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR { unlink(path) }
        }
    }

    /// True when the file `name` in the folder open as `folder` holds exactly `bytes` (size checked first, so
    /// most changes cost one stat).
    static func contentEquals(folder: Int32, name: UnsafePointer<CChar>, bytes: [UInt8]) -> Bool {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            Int(info.st_size) == bytes.count
        else {
            return false
        }
        let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var existing = [UInt8](repeating: 0, count: bytes.count)
        return readFully(descriptor, into: &existing) == bytes.count && existing == bytes
    }

    /// True when the regular files at `left` and `right` hold the same bytes, read a megabyte at a time.
    static func filesEqual(_ left: String, _ right: String) -> Bool {
        var leftInfo = stat()
        var rightInfo = stat()
        guard stat(left, &leftInfo) == 0, stat(right, &rightInfo) == 0, (leftInfo.st_mode & S_IFMT) == S_IFREG,
            leftInfo.st_size == rightInfo.st_size
        else { return false }
        let leftFile = open(left, O_RDONLY | O_CLOEXEC)
        guard leftFile >= 0 else { return false }
        defer { close(leftFile) }
        let rightFile = open(right, O_RDONLY | O_CLOEXEC)
        guard rightFile >= 0 else { return false }
        defer { close(rightFile) }
        let size = 1 << 20
        var leftBuffer = [UInt8](repeating: 0, count: size)
        var rightBuffer = [UInt8](repeating: 0, count: size)
        while true {
            let leftCount = readFully(leftFile, into: &leftBuffer)
            let rightCount = readFully(rightFile, into: &rightBuffer)
            guard leftCount == rightCount, leftCount >= 0 else { return false }
            if leftCount == 0 { return true }
            guard leftBuffer[0..<leftCount] == rightBuffer[0..<rightCount] else { return false }
        }
    }

    /// Fills `buffer` from `descriptor` (fewer bytes only at the end of the file); -1 on a read error.
    private static func readFully(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress.map { $0 + filled }, raw.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return -1 }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// One open, one write loop, one close: the cheapest way to make a small file.
    static func writeFile(_ bytes: [UInt8], to path: String) throws(PublishError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .writeFailure(errno, at: path)
        }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, path: path)
    }

    /// Writes all of `bytes` to an open file (see `FileDescriptorWrite`).
    /// `path` names the file in the error only: made when a write fails, not for each of 300,000 files written.
    static func writeAll(
        _ bytes: [UInt8], to descriptor: Int32, path: @autoclosure () -> String
    ) throws(PublishError) {
        if let code = bytes.withUnsafeBytes({ FileDescriptorWrite.all($0, to: descriptor) }) {
            throw .writeFailure(code, at: path())
        }
    }
}

/// An error number from a failed system call, carried out of the closure that made it.
private struct Errno: Error {
    let code: Int32
}

/// Mutable bookkeeping behind the staging folder's lock.
struct StagingState {
    var written = 0
    var unchanged = 0
    /// The published files a folder of changes deletes (`holdsChangesOnly`), by relative path.
    var deleted: Set<String> = []
    /// The files a folder of changes holds from this run, by relative path: what is there beside them is an earlier
    /// update's, and goes before the changes are moved in.
    var staged: Set<String> = []
    /// Folders created so far, by relative path ("" for the root).
    var folders: [String: FolderHandles] = [:]
}

/// A folder of the new site and the same folder of the published one, open for `openat`/`linkat`.
struct FolderHandles {
    let staging: Int32
    let previous: Int32?
}
