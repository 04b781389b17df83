import CSystemShims
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Swaps a finished staging folder in place of the output folder, atomically where the OS allows.
///
/// Readers see either the old site or the new one, never a mix: on Linux the two folders are exchanged with
/// `renameat2(RENAME_EXCHANGE)` (macOS: `renamex_np(RENAME_SWAP)`); where that is not supported the old folder
/// is renamed aside first, leaving a gap of one rename.
public struct SitePublisher: Sendable {
    /// The published site.
    public let output: URL
    /// Marks a folder as orgdir's, so orgdir never replaces a folder somebody else filled.
    public static let markerName = ".orgdir-site"

    public init(output: URL) {
        self.output = output.standardizedFileURL
    }

    /// Where the site replaced by the last publish is kept (`.<output>.spare` beside the output), so the next run
    /// can update it into the new site instead of building one from nothing (see `makeStaging(recyclingSpare:)`).
    public var spare: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare")
    }

    /// Creates a staging folder beside the output (same filesystem, so the swap is a rename): the spare, renamed,
    /// when `recyclingSpare` and there is one (a recycled `StagingDirectory`), else an empty folder. A spare that
    /// is not recycled is removed: it would be stale by the end of this run. Except when the output is gone or
    /// holds only dotfiles (a first build after it was deleted or emptied, with or without the state): its spare is
    /// renamed into staging all the same, as a folder that `holdsEarlierFiles` but is not recycled against a
    /// published site, which the build writes over and sweeps.
    ///
    /// Why recycle: at 100,000 people a nightly run changes a few thousand of some 300,000 files, and linking
    /// every unchanged file into an empty folder, then removing the replaced site, was half of the run. And why
    /// write over an orphaned spare: removing its 300,000 files made a first build after `rm -rf Output State`
    /// about 30 % slower than one from nothing (3.6 -> 4.6 s), where writing over them, which keeps their pages,
    /// made it faster (3.0 s; `Benchmarks/orphaned-spare.sh ORGDIR 100000 3` on each binary, Benchmarks/README.md).
    public func makeStaging(recyclingSpare: Bool = false) throws(PublishError) -> StagingDirectory {
        let fileManager = FileManager.default
        let parent = output.deletingLastPathComponent()
        let (outputExists, holdsSite) = try inspectOutput()
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw .createFailure(error, at: parent.path)
        }
        removeAbandonedStaging(in: parent)
        // Files an update replaced, kept for the next update to write over: a whole site has no use for them.
        if isOrgdirFolder(replaced) { TreeRemoval.remove(replaced.path) }
        let name = ".\(output.lastPathComponent).staging-\(getpid())-\(UUID().uuidString.prefix(8))"
        let root = parent.appendingPathComponent(name, isDirectory: true)
        if recyclingSpare && outputExists && isOrgdirFolder(spare) && rename(spare.path, root.path) == 0 {
            // Under the staging name, a run that dies from here on leaves it to `removeAbandonedStaging`.
            return StagingDirectory(root: root, previous: output, recycled: true)
        }
        if !holdsSite && isOrgdirFolder(spare) && rename(spare.path, root.path) == 0 {
            // An orphaned spare: nothing published to compare its files with (the output's dotfiles still count).
            return StagingDirectory(
                root: root, previous: outputExists ? output : nil, recycled: true, againstPublished: false)
        }
        if isOrgdirFolder(spare) { TreeRemoval.remove(spare.path) }
        do {
            try fileManager.createDirectory(at: root, withIntermediateDirectories: false)
        } catch {
            throw .createFailure(error, at: root.path)
        }
        return StagingDirectory(root: root, previous: outputExists ? output : nil)
    }

    /// Whether the output exists and holds a site (not just dotfiles: `rm -rf Output/*` leaves those, the marker
    /// included), refusing an output no site could be published to: a file, a mount point (the swap at the end would
    /// fail with EBUSY after all the work), or a folder holding files orgdir did not write. Only reads, so that
    /// `orgdir config check` can ask it too.
    public func inspectOutput() throws(PublishError) -> (exists: Bool, holdsSite: Bool) {
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: output.path, isDirectory: &isFolder) else { return (false, false) }
        guard isFolder.boolValue else { throw .outputNotAFolder(path: output.path) }
        if Self.isMountPoint(output) { throw .outputIsMountPoint(path: output.path) }
        let contents = (try? fileManager.contentsOfDirectory(atPath: output.path)) ?? []
        let meaningful = contents.filter { $0 != ".gitkeep" && $0 != ".DS_Store" }
        if !meaningful.isEmpty && !contents.contains(Self.markerName) { throw .foreignOutput(path: output.path) }
        return (true, contents.contains { !$0.hasPrefix(".") })
    }

    /// Finishes the staging folder and makes it the output. On error the old output is still in place.
    ///
    /// The replaced site becomes the spare when `keepingSpare` (and the rename succeeds), else it is removed;
    /// returns true when it was kept.
    @discardableResult
    public func publish(
        _ staging: StagingDirectory, generatedAt: Date, keepingSpare: Bool = false
    ) throws(PublishError) -> Bool {
        staging.carryOverDotfiles(except: [Self.markerName])
        let markerPath = staging.root.appendingPathComponent(Self.markerName).path
        unlink(markerPath)  // a recycled folder's marker: replaced, never rewritten in place
        try StagingDirectory.writeFile(Self.marker(generatedAt: generatedAt), to: markerPath)
        let fileManager = FileManager.default
        if !fileManager.fileExists(atPath: output.path) {
            guard rename(staging.root.path, output.path) == 0 else {
                throw .swapFailed(path: output.path, reason: Self.swapFailure(errno))
            }
            return false
        }
        if orgdir_exchange_paths(staging.root.path, output.path) == 0 {
            // The staging path now holds the old site.
            return retire(staging.root, keepingSpare: keepingSpare)
        }
        // No atomic exchange here (EINVAL/ENOSYS on some filesystems): move the old site aside, then rename.
        let aside = staging.root.deletingLastPathComponent()
            .appendingPathComponent(".\(output.lastPathComponent).old-\(getpid())-\(UUID().uuidString.prefix(8))")
        guard rename(output.path, aside.path) == 0 else {
            throw .swapFailed(path: output.path, reason: Self.swapFailure(errno))
        }
        guard rename(staging.root.path, output.path) == 0 else {
            let reason = FileDescriptorWrite.describe(errno)
            _ = rename(aside.path, output.path)
            throw .swapFailed(path: output.path, reason: reason)
        }
        return retire(aside, keepingSpare: keepingSpare)
    }

    /// The replaced site at `old`: renamed to the spare when `keepingSpare`, else (or when that fails) removed.
    private func retire(_ old: URL, keepingSpare: Bool) -> Bool {
        if keepingSpare {
            if isOrgdirFolder(spare) { TreeRemoval.remove(spare.path) }
            if rename(old.path, spare.path) == 0 { return true }
        }
        TreeRemoval.remove(old.path)
        return false
    }

    /// The marker file's bytes for a site generated at `generatedAt`.
    static func marker(generatedAt: Date) -> [UInt8] {
        let stamp = ISO8601DateFormatter().string(from: generatedAt)
        return Array("This folder is generated by orgdir and replaced on every run (\(stamp)).\n".utf8)
    }

    /// True when `folder` is a real folder (not a link) holding orgdir's marker file.
    func isOrgdirFolder(_ folder: URL) -> Bool {
        var info = stat()
        guard lstat(folder.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return false }
        return lstat(folder.appendingPathComponent(Self.markerName).path, &info) == 0
    }

    /// Removes a staging folder after a failed run.
    public func discard(_ staging: StagingDirectory) {
        if staging.holdsChangesOnly {
            recoverUpdate(at: staging.root.deletingLastPathComponent())
            return
        }
        TreeRemoval.remove(staging.root.path)
    }

    /// Whether something is mounted on `folder`: the kernel says so where it can (a bind mount of the same file system
    /// included, which has its parent's device), and elsewhere its device differs from its parent's. A bind mount
    /// missed on an older kernel still fails the swap with EBUSY, which the message explains (`swapFailure`).
    static func isMountPoint(_ folder: URL) -> Bool {
        switch orgdir_is_mount_root(folder.path) {
        case 1: return true
        case 0: return false
        default:
            var own = stat()
            var parent = stat()
            guard lstat(folder.path, &own) == 0, stat(folder.deletingLastPathComponent().path, &parent) == 0 else {
                return false
            }
            return own.st_dev != parent.st_dev
        }
    }

    /// Why a rename of the output failed, with what EBUSY most likely means here.
    private static func swapFailure(_ code: Int32) -> String {
        let text = FileDescriptorWrite.describe(code)
        return code == EBUSY ? text + " (is the output folder a mount point? use a folder inside it)" : text
    }

    /// Staging folders left by runs that crashed (their process is gone) are deleted; the moves of an update folder's
    /// journal are undone first (`recoverUpdate`).
    func removeAbandonedStaging(in parent: URL) {
        let prefixes = [".\(output.lastPathComponent).staging-", ".\(output.lastPathComponent).old-", updatePrefix]
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { continue }
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let folder = parent.appendingPathComponent(name, isDirectory: true)
            if prefix == updatePrefix {
                recoverUpdate(at: folder)
            } else {
                TreeRemoval.remove(folder.path)
            }
        }
    }
}
