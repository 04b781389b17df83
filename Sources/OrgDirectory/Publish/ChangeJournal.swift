import CSystemShims
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The moves that put a folder of changes (`StagingDirectory.holdsChangesOnly`) into the published site, written down
/// before the first one is made, so that any failure can be undone: at once when a move fails, and by the next run
/// when this one died halfway (`SitePublisher` rolls back the journal of an update folder whose process is gone).
///
/// Each step replaces, adds or deletes one entry of the published folder, and each is one rename where the file system
/// allows: a replaced file is exchanged with its new version (`renameat2(RENAME_EXCHANGE)`, macOS `RENAME_SWAP`), so
/// readers always find a whole file at the path, old or new, and the old one is left in the update folder. Each step
/// records the inode it moves: whether it was made is read from the file system (is that inode at the path?), so
/// undoing needs no record of progress and undoing twice does nothing more.
struct ChangeJournal: Equatable {
    /// One entry of the published folder changed.
    struct Step: Equatable {
        enum Kind: UInt8 {
            /// A published file replaced by the staged one (`inode` the staged file's).
            case replace = 0x52  // "R"
            /// A staged file added where the published site has nothing (`inode` the staged file's).
            case add = 0x41  // "A"
            /// A staged folder added whole where the published site has nothing (`inode` the staged folder's).
            case addFolder = 0x46  // "F"
            /// A published entry moved aside into the update folder (`inode` the published entry's).
            case delete = 0x44  // "D"
        }
        var kind: Kind
        var inode: UInt64
        /// Relative to the published folder, the staged folder and the folder of deleted entries alike.
        var path: String
    }

    /// The published folder, the folder of changes moved into it, and where replaced and deleted entries go.
    let output: String
    let staged: String
    let aside: String
    var steps: [Step] = []
    /// Whether replacements try the atomic exchange first; false makes every one take the way of a file system
    /// without it (a second link, then a rename), which is how tests reach that way on one that has it.
    var exchanges = true

    /// The first line of a journal file; a file without it is not read.
    static let header = "orgdir change journal 1\n"

    /// The steps that make `output` hold the staged files at `files` (relative paths into `staged`), and lose the
    /// entries at `deleted` that are not among them. Within each folder its subfolders come first and the top-level
    /// files last, so the index is replaced after the pages it links to are in place; the deletions come after
    /// everything else.
    ///
    /// The plan walks the run's own list of staged files, not a listing of `staged`: a folder of changes also holds the
    /// earlier update's files until they are dropped (`StagingDirectory.dropEarlierFiles`), which can happen while
    /// the plan is made, and no file outside the list is ever moved in. A staged file's folder is only ever left
    /// empty by the moves, so the plan looks only at entries no drop removes. Listing the staged folders was also most
    /// of the plan's time: some 4,000 names at 100,000 people, sorted, where the run knows its 2,500 files.
    static func plan(
        output: String, staged: String, aside: String, files: Set<String>, deleted: Set<String>
    ) throws(PublishError) -> ChangeJournal {
        var journal = ChangeJournal(output: output, staged: staged, aside: aside)
        let tree = StagedTree(files)
        try journal.planFolder("", holding: tree)
        // Entries inside a folder already moved aside whole (a new file where a folder was) go with it.
        let movedAside = Set(journal.steps.lazy.filter { $0.kind == .delete }.map { $0.path + "/" })
        // A path staged since it was noted (a new entry of the same name) is no deletion.
        for path in deleted.sorted() where !tree.holds(path[...]) {
            guard !movedAside.contains(where: { path.hasPrefix($0) }) else { continue }
            var info = stat()
            // Already gone.
            guard lstat(output + "/" + path, &info) == 0 else { continue }
            journal.steps.append(Step(kind: .delete, inode: UInt64(info.st_ino), path: path))
        }
        return journal
    }

    /// Plans the staged folder at `folder` ("" for the top), which exists in the published site too and holds the
    /// staged files in `tree`. Entries are looked at relative to the two open folders: a night plans some 2,500 files,
    /// most in `people/`.
    private mutating func planFolder(_ folder: String, holding tree: StagedTree) throws(PublishError) {
        let stagedPath = folder.isEmpty ? staged : staged + "/" + folder
        let descriptor = open(stagedPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .writeFailure(errno, at: stagedPath) }
        defer { close(descriptor) }
        let outputPath = folder.isEmpty ? output : output + "/" + folder
        let publishedFolder = open(outputPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard publishedFolder >= 0 else { throw .writeFailure(errno, at: outputPath) }
        defer { close(publishedFolder) }
        func inode(of name: String) throws(PublishError) -> UInt64 {
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw .writeFailure(errno, at: stagedPath + "/" + name)
            }
            return UInt64(info.st_ino)
        }
        for (name, subtree) in tree.folders.sorted(by: { $0.key < $1.key }) {
            let path = folder.isEmpty ? name : folder + "/" + name
            var published = stat()
            let present = fstatat(publishedFolder, name, &published, AT_SYMLINK_NOFOLLOW) == 0
            if present && (published.st_mode & S_IFMT) == S_IFDIR {
                try planFolder(path, holding: subtree)
                continue
            }
            if present { steps.append(Step(kind: .delete, inode: UInt64(published.st_ino), path: path)) }
            steps.append(Step(kind: .addFolder, inode: try inode(of: name), path: path))
        }
        for name in tree.files.sorted() {
            let path = folder.isEmpty ? name : folder + "/" + name
            let inode = try inode(of: name)
            var published = stat()
            if fstatat(publishedFolder, name, &published, AT_SYMLINK_NOFOLLOW) != 0 {
                steps.append(Step(kind: .add, inode: inode, path: path))
            } else if (published.st_mode & S_IFMT) == S_IFDIR {
                // A folder of another layout where the new site has a file: moved aside whole.
                steps.append(Step(kind: .delete, inode: UInt64(published.st_ino), path: path))
                steps.append(Step(kind: .add, inode: inode, path: path))
            } else {
                steps.append(Step(kind: .replace, inode: inode, path: path))
            }
        }
    }

    // MARK: Making the moves

    /// Makes every step in order; when one fails, undoes the steps made so far (the failed one included) and throws,
    /// naming the path. `stoppingAfter` makes only that many steps and returns, as a run that dies there would
    /// (tests).
    func apply(stoppingAfter limit: Int? = nil) throws(PublishError) {
        var folders = FolderPairs(output: output, staged: staged)
        defer { folders.closeAll() }
        for (index, step) in steps.enumerated() {
            if let limit, index >= limit { return }
            if let code = make(step, in: &folders) {
                let failedAt = output + "/" + step.path
                let reason = FileDescriptorWrite.describe(code, at: failedAt)
                let left = rollBack(upTo: index + 1)
                let note = left.isEmpty ? "" : "; \(left.count) of its entries could not be put back (\(left[0]) ...)"
                throw .swapFailed(path: output, reason: "\(failedAt): \(reason)\(note)")
            }
        }
    }

    /// Makes one step, a replacement relative to the open `folders`; the error number when it failed.
    private func make(_ step: Step, in folders: inout FolderPairs) -> Int32? {
        let published = output + "/" + step.path
        let new = staged + "/" + step.path
        switch step.kind {
        case .replace:
            let code = exchanges ? folders.exchange(step.path) : EINVAL
            if code == 0 { return nil }
            guard code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP else { return code }
            // No exchange on this file system: the published file is kept aside by a second link (or, where links
            // are refused, by a rename: one moment without a file at the path), then replaced.
            let kept = aside + "/" + step.path
            guard makeParents(of: kept) else { return errno }
            if link(published, kept) != 0 && rename(published, kept) != 0 { return errno }
            return rename(new, published) == 0 ? nil : errno
        case .add, .addFolder:
            return rename(new, published) == 0 ? nil : errno
        case .delete:
            let kept = aside + "/" + step.path
            guard makeParents(of: kept) else { return errno }
            return rename(published, kept) == 0 ? nil : errno
        }
    }

    /// Undoes the first `count` steps, last first, as far as each was made; the paths it could not put back.
    @discardableResult
    func rollBack(upTo count: Int? = nil) -> [String] {
        var left: [String] = []
        for step in steps.prefix(count ?? steps.count).reversed() where !undo(step) {
            left.append(output + "/" + step.path)
        }
        return left
    }

    /// Undoes one step if it was made; false when it was and could not be undone.
    private func undo(_ step: Step) -> Bool {
        let published = output + "/" + step.path
        let new = staged + "/" + step.path
        let kept = aside + "/" + step.path
        switch step.kind {
        case .replace:
            let current = Self.inode(at: published)
            if let current, current != step.inode { return true }  // not made: the published file is still there
            // The published file is aside (no exchange here) or, exchanged, where the staged one was.
            let original = Self.inode(at: kept) != nil ? kept : new
            guard let found = Self.inode(at: original), found != step.inode else { return false }
            return rename(original, published) == 0
        case .add, .addFolder:
            guard Self.inode(at: published) == step.inode else { return true }
            return makeParents(of: new) && rename(published, new) == 0
        case .delete:
            guard Self.inode(at: kept) == step.inode else { return true }
            return makeParents(of: published) && rename(kept, published) == 0
        }
    }

    /// The inode at `path` (not following a link), nil when there is nothing.
    private static func inode(at path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    /// Creates the folders above `path` that are missing; false when one cannot be made.
    private func makeParents(of path: String) -> Bool {
        let parent = (path as NSString).deletingLastPathComponent
        var info = stat()
        if lstat(parent, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR }
        guard makeParents(of: parent) else { return false }
        return mkdir(parent, 0o755) == 0 || errno == EEXIST
    }

    /// Removes the folders of the published site that deleted entries left empty, deepest first, never the top.
    func removeEmptiedFolders() {
        var folders = Set<String>()
        for step in steps where step.kind == .delete {
            var folder = (step.path as NSString).deletingLastPathComponent
            while !folder.isEmpty {
                folders.insert(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            _ = rmdir(output + "/" + folder)  // ENOTEMPTY for a folder still in use
        }
    }

    // MARK: The journal file

    /// The journal as bytes: the header, then per step its kind, its inode and its path, each step ended by a NUL
    /// (a path may hold any other byte). The folders are not in it: they are the update folder's own.
    func encoded() -> [UInt8] {
        var bytes = Array(Self.header.utf8)
        for step in steps {
            bytes.append(step.kind.rawValue)
            bytes += Array(" \(step.inode) ".utf8)
            bytes += Array(step.path.utf8)
            bytes.append(0)
        }
        return bytes
    }

    /// The journal in `bytes` (`encoded()`), for the folders given; nil when they are not a whole journal.
    static func decode(_ bytes: [UInt8], output: String, staged: String, aside: String) -> ChangeJournal? {
        let header = Array(Self.header.utf8)
        guard bytes.starts(with: header) else { return nil }
        var journal = ChangeJournal(output: output, staged: staged, aside: aside)
        for record in bytes[header.count...].split(separator: 0, omittingEmptySubsequences: false).dropLast() {
            guard let first = record.first, let kind = Step.Kind(rawValue: first) else { return nil }
            let fields = record.dropFirst().split(
                separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].isEmpty, let inode = UInt64(String(decoding: fields[1], as: UTF8.self)),
                let path = String(validating: fields[2], as: UTF8.self), !path.isEmpty
            else { return nil }
            journal.steps.append(Step(kind: kind, inode: inode, path: path))
        }
        guard bytes.last == 0 || bytes.count == header.count else { return nil }
        return journal
    }
}

/// The staged files as folders of names, built from their relative paths: what `ChangeJournal.plan` walks.
private struct StagedTree {
    var files: Set<String> = []
    var folders: [String: StagedTree] = [:]

    init(_ relativePaths: Set<String>) {
        for path in relativePaths { insert(path[...]) }
    }

    private init() {}

    private mutating func insert(_ path: Substring) {
        guard let slash = path.firstIndex(of: "/") else {
            files.insert(String(path))
            return
        }
        folders[String(path[..<slash]), default: StagedTree()].insert(path[path.index(after: slash)...])
    }

    /// Whether `path` is a file or a folder of the tree.
    func holds(_ path: Substring) -> Bool {
        guard let slash = path.firstIndex(of: "/") else {
            let name = String(path)
            return folders[name] != nil || files.contains(name)
        }
        return folders[String(path[..<slash])]?.holds(path[path.index(after: slash)...]) ?? false
    }
}

/// The same folder of the published site and of the folder of changes, open, for exchanges relative to them: a night's
/// 2,000 or so replacements in `people/` walked the two whole paths each.
private struct FolderPairs {
    let output: String
    let staged: String
    private var opened: [Substring: (published: Int32, staged: Int32)] = [:]

    init(output: String, staged: String) {
        self.output = output
        self.staged = staged
    }

    /// Exchanges the staged file at `path` with the published one (by whole paths when the folders cannot be opened);
    /// 0, or the error number.
    mutating func exchange(_ path: String) -> Int32 {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[..<$0] } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let done =
            if let pair = pair(folder) {
                orgdir_exchange_at(pair.staged, name, pair.published, name) == 0
            } else {
                orgdir_exchange_paths(staged + "/" + path, output + "/" + path) == 0
            }
        return done ? 0 : errno
    }

    private mutating func pair(_ folder: Substring) -> (published: Int32, staged: Int32)? {
        if let known = opened[folder] { return known }
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let published = open(folder.isEmpty ? output : output + "/" + folder, flags)
        guard published >= 0 else { return nil }
        let staged = open(folder.isEmpty ? self.staged : self.staged + "/" + folder, flags)
        guard staged >= 0 else {
            close(published)
            return nil
        }
        opened[folder] = (published, staged)
        return (published, staged)
    }

    func closeAll() {
        for pair in opened.values {
            close(pair.published)
            close(pair.staged)
        }
    }
}
