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
    ///
    /// A run that changed at least `wholeSiteShare` of the site's files, and at least `wholeSiteMinimum` of them (other
    /// hidden fields, new templates), makes its folder of changes a whole site instead, by linking the unchanged files
    /// into it, and swaps the folders as a first build does (`publish`): moved in one by one, half of a large site's
    /// pages would let readers see old and new pages side by side for a second or more. It costs time: at 100,000
    /// people, other hidden fields (154,000 files, 51 %) took 2.7 s to publish swapped against 1.4–1.7 s moved, most of
    /// it removing the old site; a new title (100,441 files, 33 %) is moved, in about 1 s. Returns true when it
    /// swapped a whole site in.
    @discardableResult
    public func publishChanges(
        _ staging: StagingDirectory, generatedAt: Date, wholeSiteShare: Double = 0.5, wholeSiteMinimum: Int = 2_000
    ) throws(PublishError) -> Bool {
        let update = staging.root.deletingLastPathComponent()
        let counts = staging.counts
        // The earlier update's files this run did not write go first when the rest is linked in (`linkUnchanged`
        // must not find them), else while the moves are planned (below).
        var dropped = false
        if counts.written >= wholeSiteMinimum,
            Double(counts.written) >= wholeSiteShare * Double(counts.written + counts.unchanged)
        {
            try staging.dropEarlierFiles()
            dropped = true
            if linkUnchanged(into: staging) {
                try publish(staging, generatedAt: generatedAt)
                TreeRemoval.remove(update.path)
                return true
            }
        }
        try StagingDirectory.writeFile(
            Self.marker(generatedAt: generatedAt), to: staging.rootPath + "/" + Self.markerName)
        // The drop runs on the other core while the moves are planned: the plan looks only at this run's files
        // (`ChangeJournal.plan`). Each was some 12 ms of a 100,000-person nightly on one core, the other idle.
        let files = staging.stagedPaths.union([Self.markerName])
        let output = output.path
        let (droppedNow, planned) = BothAtOnce.run(
            { [dropped] () -> Result<Void, PublishError> in
                Result { () throws(PublishError) in if !dropped { try staging.dropEarlierFiles() } }
            },
            { () -> Result<ChangeJournal, PublishError> in
                Result { () throws(PublishError) in
                    try ChangeJournal.plan(
                        output: output, staged: staging.rootPath, aside: update.appendingPathComponent("old").path,
                        files: files, deleted: staging.deletedPaths)
                }
            })
        try droppedNow.get()
        let journal = try planned.get()
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
        return false
    }

    /// After a whole site was published (a first build), keeps copies of the published files nearly every update writes
    /// again as `replaced`, the folder of files the update before would have left: the top-level files (the exports,
    /// the index and overview pages) and every file of `folders` (the list pages). The first update then writes over
    /// them in place, as every later one writes over the files the one before it replaced. Returns how many files
    /// were copied; nothing is done when something is at `replaced` already.
    ///
    /// Why: the first nightly after a full build had no such folder and made all of them new, some 150 MB at 100,000
    /// people, each page of them a fresh page of memory for the file system, which on these machines costs several
    /// times a page written over. The copies are made by the kernel (`FileCopy`), at the end of the build.
    ///
    /// Nothing in the folder is read: `makeChangesStaging` makes it the update's folder of changes, whose files are
    /// written over whole and cut to length, or swept away when the update does not write them. So a copy left
    /// half-made (a full disk, a run killed) does no harm, and the marker is written first: an unmarked folder would
    /// stand in the way of the first update's own `replaced` without ever being used or removed.
    @discardableResult
    public func keepCopiesForFirstUpdate(folders: [String]) -> Int {
        var info = stat()
        guard lstat(replaced.path, &info) != 0, errno == ENOENT, mkdir(replaced.path, 0o755) == 0 else { return 0 }
        let marker = replaced.appendingPathComponent(Self.markerName).path
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let published = open(output.path, flags)
        let copies = open(replaced.path, flags)
        defer {
            if published >= 0 { close(published) }
            if copies >= 0 { close(copies) }
        }
        guard (try? StagingDirectory.writeFile(Self.marker(generatedAt: Date()), to: marker)) != nil,
            published >= 0, copies >= 0
        else {
            TreeRemoval.remove(replaced.path)
            return 0
        }
        var copied = 0
        /// Copies the files (not dotfiles, not folders) of the open folder `from` into `to`; false once one fails.
        func copyFiles(from source: Int32, to target: Int32) -> Bool {
            for name in FolderListing.entries(of: source).files where !name.hasPrefix(".") {
                guard FileCopy.copy(name, in: source, to: name, in: target) else { return false }
                copied += 1
            }
            return true
        }
        guard copyFiles(from: published, to: copies) else { return copied }
        for folder in folders {
            let source = openat(published, folder, flags)
            guard source >= 0 else { continue }
            defer { close(source) }
            guard mkdirat(copies, folder, 0o755) == 0 else { return copied }
            let target = openat(copies, folder, flags)
            guard target >= 0 else { return copied }
            defer { close(target) }
            guard copyFiles(from: source, to: target) else { return copied }
        }
        return copied
    }

    /// Links every published file that the folder of changes `staging` neither holds nor deletes into it, making it a
    /// whole site. False, with the links it made removed again, when one cannot be made (a file system without hard
    /// links): the changes are then moved in after all.
    func linkUnchanged(into staging: StagingDirectory) -> Bool {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let published = open(output.path, flags)
        guard published >= 0 else { return false }
        defer { close(published) }
        let staged = open(staging.rootPath, flags)
        guard staged >= 0 else { return false }
        defer { close(staged) }
        var linked: [String] = []
        if linkFolder(published, into: staged, prefix: "", deleted: staging.deletedPaths, linked: &linked) {
            return true
        }
        for path in linked { unlink(staging.rootPath + "/" + path) }
        return false
    }

    /// `linkUnchanged` for the open published folder `published` and its counterpart `staged`, whose relative path with
    /// a trailing slash is `prefix`; the paths linked are added to `linked`.
    private func linkFolder(
        _ published: Int32, into staged: Int32, prefix: String, deleted: Set<String>, linked: inout [String]
    ) -> Bool {
        let (files, folders) = FolderListing.entries(of: published)
        for name in files where !deleted.contains(prefix + name) {
            var info = stat()
            if fstatat(staged, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { continue }  // this run's file
            guard linkat(published, name, staged, name, 0) == 0 else { return false }
            linked.append(prefix + name)
        }
        for name in folders {
            var info = stat()
            if fstatat(staged, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                if (info.st_mode & S_IFMT) != S_IFDIR { continue }  // the new site has a file there
            } else if mkdirat(staged, name, 0o755) != 0 {
                return false
            }
            let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let publishedChild = openat(published, name, flags)
            guard publishedChild >= 0 else { return false }
            defer { close(publishedChild) }
            let stagedChild = openat(staged, name, flags)
            guard stagedChild >= 0 else { return false }
            defer { close(stagedChild) }
            guard
                linkFolder(
                    publishedChild, into: stagedChild, prefix: prefix + name + "/", deleted: deleted, linked: &linked)
            else { return false }
            _ = unlinkat(staged, name, AT_REMOVEDIR)  // a folder whose files all go goes too (ENOTEMPTY otherwise)
        }
        return true
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
