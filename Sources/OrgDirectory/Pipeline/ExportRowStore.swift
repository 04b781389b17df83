import Foundation

/// Where a run keeps the table of everyone's export rows for the next one (`ExportRows`): `export-rows.bin` in the
/// state folder.
///
/// Only a time saver (`StateCacheFile`): the table is also forgotten before every publish, so it never describes
/// exports other than the published ones (the next run would then make every row, as a first build does).
public struct ExportRowStore: Sendable {
    private let cache: StateCacheFile
    public var file: URL { cache.url }
    /// The list rows kept beside the table (`KeptRowFiles`), which it describes.
    public let keptRows: KeptRowFiles

    public init(stateDirectory: URL) {
        cache = StateCacheFile("export-rows.bin", in: stateDirectory)
        keptRows = KeptRowFiles(stateDirectory: stateDirectory)
    }

    /// The stored table, else nil.
    func load() -> ExportRows? {
        cache.read(ExportRows.decode)
    }

    /// Replaces the stored table (nil: keeps none), and removes the kept rows it does not describe: they are read only
    /// through a table that names them, so a run that kept none of a kind (a list template overridden, a directory
    /// too large for a table) would otherwise leave the run before's file unread in the state folder (some 30 MB at
    /// 100,000 people). On failure, removes the table and rethrows.
    func save(_ rows: ExportRows?) throws {
        try prepareSave(rows).commit()
    }

    /// The first half of `save`: the table written beside its file; `commit` puts it in place (or, for nil, removes
    /// it) and removes the kept rows it does not describe. On failure, removes the table and rethrows.
    func prepareSave(_ rows: ExportRows?) throws(FileReplacement.Failure) -> PendingStateSave {
        let described = Set(rows.map { Array($0.kept.keys) } ?? [])
        let pending = try rows.map { rows throws(FileReplacement.Failure) in
            try cache.prepare(encodingInPieces: rows.encode(into:))
        }
        return PendingStateSave(
            commit: { [cache, keptRows] in
                keptRows.discard(allBut: described)
                guard let pending else { return cache.remove() }
                try pending.commit()
            }, discard: { pending?.discard() })
    }

    /// Forgets the stored table (before a publish; the next `save` writes over it, see `StateCacheFile.clear`).
    func clear() {
        cache.clear()
    }
}
