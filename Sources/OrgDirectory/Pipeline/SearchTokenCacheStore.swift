import Foundation

/// Where a run keeps everyone's search tokens for the next one (`SearchTokenCache`): `search-tokens.bin` in the
/// state folder.
///
/// Only a time saver (`StateCacheFile`): a file made by another version or with other hidden fields is ignored
/// too, so the next run tokenizes everyone (as a first build does).
///
/// A run that keeps the published search base and writes only an overlay (`SiteReport.searchBaseRows`) keeps the
/// stored tokens, which describe that base, and saves where its people are in the base in `search-overlay.bin`:
/// the tokens are then in the base's order, not in the order of the export rows that run kept (`baseRows`).
public struct SearchTokenCacheStore: Sendable {
    private let cache: StateCacheFile
    private let rowsFile: StateCacheFile
    public var file: URL { cache.url }

    public init(stateDirectory: URL) {
        cache = StateCacheFile("search-tokens.bin", in: stateDirectory)
        rowsFile = StateCacheFile("search-overlay.bin", in: stateDirectory)
    }

    /// The run before's base rows when it wrote an overlay, nil when it saved the tokens (in its rows' order) or the
    /// file is damaged or lost. Either costs time only: a number, a row's or a base's, is used only for an entry whose
    /// key is the person's record digest, and the rest are found by id (`SearchOverlayPlan.locate`).
    func baseRows() -> SearchBaseRows? {
        rowsFile.read { bytes in
            var reader = BinaryReader(bytes: bytes)
            guard reader.take(Self.rowsMagic.count).elementsEqual(Self.rowsMagic), let base = reader.digest(),
                let count: UInt32 = reader.number(), Int(count) == reader.remaining / 4, reader.remaining % 4 == 0
            else { return nil }
            var numbers: [UInt32] = []
            numbers.reserveCapacity(Int(count))
            for _ in 0..<count { numbers.append(reader.number() ?? SearchBaseRows.overlay) }
            return SearchBaseRows(base: base, numbers: numbers)
        }
    }

    private static let rowsMagic = Array("orgdir-search-overlay/1\n".utf8)

    /// Keeps the stored tokens as they are and saves `rows`, where the run that wrote an overlay over their base has
    /// its people; a failure to save them only costs the next run time.
    func keepForOverlay(_ rows: SearchBaseRows) {
        try? prepareKeepingForOverlay(rows)?.commit()
    }

    /// The first half of `keepForOverlay`: the rows written beside their file, put in place by `commit`. Nil when
    /// they cannot be written, which only costs the next run time.
    func prepareKeepingForOverlay(_ rows: SearchBaseRows) -> PendingStateSave? {
        let pending = try? rowsFile.prepare(encodingInPieces: { out throws(StateCacheFile.WriteFailure) in
            out.bytes.append(contentsOf: Self.rowsMagic)
            BinaryRecord.append(rows.base, to: &out.bytes)
            BinaryRecord.append(UInt32(rows.numbers.count), to: &out.bytes)
            BinaryRecord.append(contentsOf: rows.numbers, to: &out.bytes)
        })
        return pending.map { pending in PendingStateSave(commit: { try? pending.commit() }, discard: pending.discard) }
    }

    /// The stored cache when it was made in `context` (`SearchTokenCache.context`), else nil: mapped, read only as
    /// far as `StoredSearchTokens` says (the rest when the render asks for the whole cache). Where the system will not
    /// map the file, `MappedFile` reads it into memory, so the cache is not lost.
    func load(context: RenderFingerprint) -> StoredSearchTokens? {
        MappedFile(path: cache.url.path).flatMap { StoredSearchTokens.read($0, context: context) }
    }

    /// Replaces the stored cache; on failure, removes it and rethrows.
    func save(_ tokens: SearchTokenCache, context: RenderFingerprint) throws {
        try prepareSave(tokens, context: context).commit()
    }

    /// The first half of `save`: the cache written beside its file, put in place by `commit`, which also forgets
    /// the overlay's rows (the tokens are then in the order of the run's rows). On failure, removes the cache.
    func prepareSave(
        _ tokens: SearchTokenCache, context: RenderFingerprint
    ) throws(FileReplacement.Failure) -> PendingStateSave {
        let pending = try cache.prepare(encodingInPieces: { out throws(StateCacheFile.WriteFailure) in
            try tokens.encode(context: context, into: &out)
        })
        return PendingStateSave(
            commit: { [rowsFile] in
                rowsFile.remove()
                try pending.commit()
            }, discard: pending.discard)
    }

    /// Forgets the stored cache.
    func clear() {
        rowsFile.remove()
        cache.remove()
    }
}
