import Foundation

/// The snapshots in the state folder: saving them atomically, listing them, finding one by a reference, and
/// keeping only the newest `keep`.
///
/// Only runs holding the `RunLock` save; listing and loading are safe at any time, because a snapshot appears
/// under its final name only once it is complete.
public struct SnapshotStore: Sendable {
    /// The folder holding the snapshot files (usually `<state>/snapshots`).
    public let folder: URL
    /// How many snapshots to keep (the plist's `keepSnapshots`); nil keeps all.
    public let keep: Int?
    var writer = SnapshotFileWriter()

    /// A store in `folder`; `keep` below 1 is treated as 1, so the snapshot just written always survives.
    public init(folder: URL, keep: Int?) {
        self.folder = folder
        self.keep = keep.map { max(1, $0) }
    }

    /// The store inside a state folder (`<state>/snapshots`), where orgdir keeps it.
    public init(stateDirectory: URL, keep: Int?) {
        self.init(folder: Self.folder(inState: stateDirectory), keep: keep)
    }

    /// `<state>/snapshots`.
    public static func folder(inState stateDirectory: URL) -> URL {
        stateDirectory.appendingPathComponent("snapshots", isDirectory: true)
    }

    // MARK: Saving

    /// Writes `snapshot` under a name from its `takenAt`, then removes snapshots beyond `keep`.
    /// On any failure nothing new is left behind and earlier snapshots are untouched.
    @discardableResult
    public func save(_ snapshot: Snapshot) throws(SnapshotError) -> URL {
        try prepareSave(snapshot).commit()
    }

    /// Writes `snapshot` to disk under a temporary name (the slow part) without making it a snapshot yet:
    /// `commit` on the result renames it into place and prunes, `discard` removes it. A build prepares its
    /// snapshot while the site renders and commits it once the site is published.
    /// With `previous`, the lines of people unchanged since that snapshot are copied from its file.
    /// `name` is the file's name (`nextName(takenAt:)`, the snapshot's own time, when nil: a build passes one that
    /// sorts after the newest kept, `nextName(takenAt:after:)`).
    func prepareSave(
        _ snapshot: Snapshot, reusing previous: SnapshotSource? = nil, as name: String? = nil
    ) throws(SnapshotError) -> PendingSnapshot {
        try createFolder()
        let destination = folder.appendingPathComponent(name ?? nextName(takenAt: snapshot.metadata.takenAt))
        let file = try writer.prepare(to: destination) {
            (emit: (Data) throws(SnapshotError) -> Void) throws(SnapshotError) in
            try snapshot.writeCanonical(reusing: previous, emit)
        }
        return PendingSnapshot(store: self, file: file)
    }

    /// The name a snapshot taken at `takenAt` is saved under: its time, with the next sequence number when a
    /// snapshot of that second exists (`…Z-2.json`). A run works it out before its snapshot is written: the site links
    /// the run's changes to it, and the preparations kept for the next run name it (`PreparationCache`).
    ///
    /// Never before `latest`, the newest snapshot kept: the newest is found by name, so with the clock set back (a
    /// bad time sync) tonight's snapshot would sort before last night's, and the next run would build on last
    /// night's with tonight's delta link, losing what tonight fetched. Such a name takes the latest's second, with the
    /// next sequence.
    func nextName(takenAt: Date, after latest: SnapshotEntry? = nil) -> String {
        var stamp = takenAt
        var sequence = 1
        if let latest {
            stamp = max(takenAt, latest.takenAt)
            if SnapshotName.make(for: stamp) == SnapshotName.make(for: latest.takenAt) {
                sequence = latest.sequence + 1
            }
        }
        var name = SnapshotName.make(for: stamp, sequence: sequence)
        while FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            sequence += 1
            name = SnapshotName.make(for: stamp, sequence: sequence)
        }
        return name
    }

    /// A snapshot written under a temporary name (see `prepareSave`).
    struct PendingSnapshot: Sendable {
        let store: SnapshotStore
        let file: SnapshotFileWriter.PendingFile

        /// Makes it the newest snapshot and removes snapshots beyond `keep`; returns where it is.
        @discardableResult
        func commit() throws(SnapshotError) -> URL {
            try file.commit()
            try store.prune(sparing: file.destination.lastPathComponent)
            return file.destination
        }

        /// Removes the temporary file (the run failed before publishing).
        func discard() {
            file.discard()
        }
    }

    /// Deletes the oldest snapshots beyond `keep` (never `sparing`), and temporary files a crashed run left.
    /// Returns the deleted snapshots.
    @discardableResult
    public func prune(sparing: String? = nil) throws(SnapshotError) -> [URL] {
        removeLeftoverTemporaryFiles()
        guard let keep else { return [] }
        let entries = try list()
        guard entries.count > keep else { return [] }
        var deleted: [URL] = []
        for entry in entries.prefix(entries.count - keep) where entry.name != sparing {
            do {
                try FileManager.default.removeItem(at: entry.url)
                deleted.append(entry.url)
            } catch {
                throw .writeFailed(
                    path: entry.url.path, reason: "cannot remove an old snapshot: \(error.localizedDescription)")
            }
        }
        return deleted
    }

    private func createFolder() throws(SnapshotError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .folderUnavailable(path: folder.path, reason: error.localizedDescription)
        }
    }

    /// Temporary files older than an hour belong to a run that died; younger ones may be a writer at work.
    private func removeLeftoverTemporaryFiles() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        let cutoff = Date().addingTimeInterval(-3600)
        for name in names
        where name.hasPrefix(SnapshotFileWriter.temporaryPrefix) && name.hasSuffix(SnapshotFileWriter.temporarySuffix) {
            let url = folder.appendingPathComponent(name)
            let modified = (try? manager.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
            if let modified, modified < cutoff { try? manager.removeItem(at: url) }
        }
    }

    // MARK: Listing

    /// Every snapshot, oldest first. A missing folder is an empty list; damaged files are listed with a problem.
    public func list() throws(SnapshotError) -> [SnapshotEntry] {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { throw .folderUnavailable(path: folder.path, reason: "it is not a folder") }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .folderUnavailable(path: folder.path, reason: error.localizedDescription)
        }
        return names.compactMap(entry(named:)).sorted(by: SnapshotEntry.chronological)
    }

    /// The entry for one file name, reading only the file's first line for the metadata.
    private func entry(named name: String) -> SnapshotEntry? {
        guard let (date, sequence) = SnapshotName.parse(name) else { return nil }
        let url = folder.appendingPathComponent(name)
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.intValue ?? 0
        var entry = SnapshotEntry(
            name: name, url: url, takenAt: date, sequence: sequence, byteCount: size, metadata: nil)
        do {
            entry.metadata = try Self.readMetadata(at: url)
        } catch {
            entry.problem = error.errorDescription
        }
        return entry
    }

    /// The metadata from the header line, or from a full read when the file is not laid out canonically.
    static func readMetadata(at url: URL) throws(SnapshotError) -> SnapshotMetadata {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .readFailed(path: url.path, reason: "cannot open the file")
        }
        defer { try? handle.close() }
        var prefix = Data()
        // The header is one line; a megabyte is far more than any metadata needs.
        while prefix.count < 1 << 20, !prefix.contains(UInt8(ascii: "\n")) {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 64 * 1024)
            } catch {
                throw .readFailed(path: url.path, reason: error.localizedDescription)
            }
            guard let chunk, !chunk.isEmpty else { break }
            prefix.append(chunk)
        }
        if let metadata = try Snapshot.decodeHeader(prefix, path: url.path) { return metadata }
        return try load(at: url).metadata
    }

    // MARK: Loading

    /// The snapshot a reference names: `latest`, `previous`, a UTC day (`2026-03-04`, the latest that day),
    /// a file name in the store (with or without `.json`), or a path to any snapshot file.
    public func resolve(_ reference: String) throws(SnapshotError) -> URL {
        let entries = try list()
        switch reference {
        case "latest", "previous":
            let back = reference == "latest" ? 1 : 2
            guard entries.count >= back else {
                throw .notEnoughSnapshots(reference: reference, folder: folder.path, count: entries.count)
            }
            return entries[entries.count - back].url
        default:
            break
        }
        if !reference.contains("/") {
            if SnapshotName.isDay(reference),
                let entry = entries.last(where: { $0.name.hasPrefix(reference + "T") })
            {
                return entry.url
            }
            let name =
                reference.hasSuffix("." + SnapshotName.fileExtension)
                ? reference : reference + "." + SnapshotName.fileExtension
            if let entry = entries.first(where: { $0.name == name }) { return entry.url }
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: reference, isDirectory: &isFolder), !isFolder.boolValue {
            return URL(fileURLWithPath: reference)
        }
        throw .notFound(reference: reference, folder: folder.path, available: entries.map(\.name))
    }

    /// Loads the snapshot a reference names (see `resolve(_:)`).
    public func load(_ reference: String) throws(SnapshotError) -> Snapshot {
        try Self.load(at: resolve(reference))
    }

    /// The newest snapshot, or nil when there is none yet (a first run).
    public func latest() throws(SnapshotError) -> Snapshot? {
        guard let entry = try latestEntry() else { return nil }
        return try Self.load(at: entry.url)
    }

    /// The newest snapshot's entry (its name is what a `DiffReport` and the change history refer to).
    public func latestEntry() throws(SnapshotError) -> SnapshotEntry? {
        try list().last
    }

    /// Loads a snapshot file.
    public static func load(at url: URL) throws(SnapshotError) -> Snapshot {
        try Snapshot.decode(read(url), path: url.path)
    }

    /// `load(at:)`, with the file kept as the source of the next snapshot's unchanged lines when it is canonical.
    ///
    /// With `peopleTable` (a `SnapshotPeopleTable` file), the people are read from there when it was written beside
    /// this very file and agrees with a sample of its lines (`SnapshotPeopleTable.agrees`), and the table is kept in
    /// the source for the next one; otherwise they are decoded from the file.
    static func loadWithSource(
        at url: URL, peopleTable: URL? = nil
    ) throws(SnapshotError) -> (Snapshot, SnapshotSource?) {
        let bytes = try read(url)
        if let peopleTable, let parts = bytes.withUnsafeBytes({ Snapshot.canonicalParts($0) }) {
            let metadata = try Snapshot.decodeMetadata(bytes.subdata(in: parts.metadata), path: url.path)
            if let stamp = SnapshotPeopleTable.Stamp(
                file: url.path, snapshot: url.lastPathComponent, count: metadata.counts.people),
                let (people, table) = SnapshotPeopleTable.read(path: peopleTable.path, expecting: stamp),
                Snapshot.isCanonicallyOrdered(people),
                bytes.withUnsafeBytes({ SnapshotPeopleTable.agrees(people, withLinesOf: $0, body: parts.body) })
            {
                let snapshot = Snapshot(metadata: metadata, canonicallyOrdered: people)
                return (snapshot, SnapshotSource(snapshot: snapshot, bytes: bytes, body: parts.body, table: table))
            }
        }
        let (snapshot, body) = try Snapshot.decodeWithBody(bytes, path: url.path)
        return (snapshot, body.map { SnapshotSource(snapshot: snapshot, bytes: bytes, body: $0) })
    }

    /// A snapshot file's bytes, mapped when the file allows it (`MappedFile.contents`).
    static func read(_ url: URL) throws(SnapshotError) -> Data {
        do {
            return try MappedFile.contents(of: url)
        } catch {
            throw .readFailed(path: url.path, reason: error.localizedDescription)
        }
    }
}
