import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Publishing only what changed: the files that differ from the published site are staged in an update folder beside
/// the output (`.<output>.update-<pid>-<id>`), then moved into the published folder one rename each, under a journal.
///
/// Why: a nightly run at 100,000 people changes a few thousand of some 300,000 files, and the whole-folder swap
/// (`publish`) needs a complete second site: either 300,000 hard links made each night (more, on tmpfs, than a tenth
/// of a full build: `Benchmarks/rewrite/link.c`) or a spare copy kept on disk and updated. Moving the changes in
/// costs what changed.
///
/// What readers see: every file, at every moment, is a whole file, old or new; for the few milliseconds of the moves
/// a page may be new while another is still old. A failure in a move undoes the moves made, from the journal, and
/// leaves the previous site exactly as it was; a run that dies during the moves leaves the journal, and the next run
/// undoes them before it does anything else (`removeAbandonedStaging`).
extension SitePublisher {
    /// The name every update folder of this output starts with.
    var updatePrefix: String { ".\(output.lastPathComponent).update-" }

    /// Where the files the last update replaced are kept (`.<output>.replaced` beside the output): the next update
    /// starts its folder of changes as them and writes over those it writes again (the exports, the list pages, the
    /// index: most of a night's bytes), reusing their pages instead of taking fresh ones (`OverwritableFile`). At
    /// 100,000 people that is some 2,500 files and 156 MB, against the 300,000 files of a whole spare site.
    public var replaced: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).replaced")
    }

    /// A staging folder that holds changes only (`StagingDirectory.holdsChangesOnly`), in a new update folder beside
    /// the output: the changes go to `new/`, the entries they replace or delete to `old/`, the journal to `journal`.
    /// When the output holds no site there is nothing to change: a whole-site staging folder (`makeStaging()`).
    /// A spare kept by whole-site publishing (`keepSpareSite`) is removed: it would be stale from now on. The files
    /// the last update replaced (`replaced`) become the new folder of changes, to be written over.
    public func makeChangesStaging() throws(PublishError) -> StagingDirectory {
        let (outputExists, holdsSite) = try inspectOutput()
        guard outputExists, holdsSite else { return try makeStaging() }
        let parent = output.deletingLastPathComponent()
        removeAbandonedStaging(in: parent)
        if isOrgdirFolder(spare) { TreeRemoval.remove(spare.path) }
        let update = parent.appendingPathComponent(
            "\(updatePrefix)\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        let root = update.appendingPathComponent("new", isDirectory: true)
        guard mkdir(update.path, 0o755) == 0 else { throw .createFailure(errno, at: update.path) }
        if isOrgdirFolder(replaced) && rename(replaced.path, root.path) == 0 {
            return StagingDirectory(root: root, previous: output, recycled: true, changesOnly: true)
        }
        guard mkdir(root.path, 0o755) == 0 else {
            let code = errno
            TreeRemoval.remove(update.path)
            throw .createFailure(code, at: root.path)
        }
        return StagingDirectory(root: root, previous: output, changesOnly: true)
    }

    /// Moves a folder of changes into the published site (see the type's notes), with a new marker file. On error
    /// the moves made are undone and the previous site is as it was; the caller then `discard`s the staging folder.
    public func publishChanges(_ staging: StagingDirectory, generatedAt: Date) throws(PublishError) {
        let update = staging.root.deletingLastPathComponent()
        try staging.dropEarlierFiles()
        try StagingDirectory.writeFile(
            Self.marker(generatedAt: generatedAt), to: staging.rootPath + "/" + Self.markerName)
        let journal = try ChangeJournal.plan(
            output: output.path, staged: staging.rootPath, aside: update.appendingPathComponent("old").path,
            deleted: staging.deletedPaths)
        let journalFile = update.appendingPathComponent("journal")
        do {
            try SnapshotFileWriter().write(Data(journal.encoded()), to: journalFile)
        } catch {
            throw .cannotWrite(path: journalFile.path, reason: error.errorDescription ?? "\(error)")
        }
        try journal.apply()
        // Done: without its journal the update folder holds only what was replaced. The replaced files (where the
        // changes were, exchanged out) are kept for the next update to write over; the deleted ones go.
        unlink(journalFile.path)
        if isOrgdirFolder(replaced) { TreeRemoval.remove(replaced.path) }
        _ = rename(staging.rootPath, replaced.path)
        TreeRemoval.remove(update.path)
        journal.removeEmptiedFolders()
    }

    /// Undoes the moves of the update folder `update` when it holds a journal (a run that failed or died while
    /// moving its changes in), then removes it. A folder whose moves could not all be undone is left, journal and
    /// all, for the next run to try again: the entries it holds are the published site's.
    func recoverUpdate(at update: URL) {
        let journalFile = update.appendingPathComponent("journal")
        if let bytes = FileManager.default.contents(atPath: journalFile.path) {
            guard
                let journal = ChangeJournal.decode(
                    Array(bytes), output: output.path, staged: update.appendingPathComponent("new").path,
                    aside: update.appendingPathComponent("old").path)
            else {
                // Never made by a run (the journal is renamed into place whole): leave it for a person to look at.
                return
            }
            let left = journal.rollBack()
            guard left.isEmpty else { return }
            unlink(journalFile.path)
        }
        TreeRemoval.remove(update.path)
    }
}
