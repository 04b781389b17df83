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
        keptRows.discard(allBut: Set(rows.map { Array($0.kept.keys) } ?? []))
        guard let rows else {
            cache.remove()
            return
        }
        try cache.replace(encodingInPieces: { out throws(StateCacheFile.WriteFailure) in try rows.encode(into: &out) })
    }

    /// Forgets the stored table (before a publish; the next `save` writes over it, see `StateCacheFile.clear`).
    func clear() {
        cache.clear()
    }
}
