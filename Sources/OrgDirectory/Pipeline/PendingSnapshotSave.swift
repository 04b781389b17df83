import Foundation

/// A run's snapshot written under a temporary name, with its people table (`SnapshotPeopleTable`) written beside the
/// table the state folder holds: both put in place once the site is published (`commit`), or dropped (`discard`).
///
/// The table is only a time saver. One that cannot be written or put in place is forgotten (the next run decodes the
/// snapshot's JSON instead), and it is put in place after the snapshot, so it never names a snapshot that is not there.
struct PendingSnapshotSave: Sendable {
    let snapshot: SnapshotStore.PendingSnapshot
    let table: StateCacheFile.Pending?

    /// The table of `snapshot`'s people, stamped with the file at `temporary` (the snapshot's bytes, renamed to `name`
    /// later), written beside `file`'s contents; with `previous` (the table the run read, and the plan of which of its
    /// entries the new one copies) the entries of unchanged people are copied from it. Nil when it could not be
    /// written (`file` is then removed).
    static func prepareTable(
        of snapshot: Snapshot, writtenTo temporary: URL, as name: String, in file: StateCacheFile,
        previous: (source: SnapshotPeopleTable.Source, pieces: [SnapshotLineReuse.Piece])?
    ) -> StateCacheFile.Pending? {
        guard let stamp = SnapshotPeopleTable.Stamp(file: temporary.path, snapshot: name, count: snapshot.people.count)
        else {
            file.remove()
            return nil
        }
        return try? file.prepare(pieceSize: 1 << 20) {
            (out: inout PieceBuffer<StateCacheFile.WriteFailure>) throws(StateCacheFile.WriteFailure) in
            try SnapshotPeopleTable.write(snapshot.people, stamp: stamp, previous: previous, to: &out)
        }
    }

    /// Makes the snapshot the newest (`SnapshotStore.PendingSnapshot.commit`), then puts the table in place; returns
    /// where the snapshot is. When the snapshot cannot be, the table is dropped.
    func commit() throws(SnapshotError) -> URL {
        let url: URL
        do {
            url = try snapshot.commit()
        } catch {
            table?.discard()
            throw error
        }
        try? table?.commit()
        return url
    }

    /// Drops both (the run failed before publishing).
    func discard() {
        snapshot.discard()
        table?.discard()
    }
}
