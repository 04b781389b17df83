import Foundation

/// Where a run keeps everyone's preparation for the next one (`PreparationCache`): `preparations.bin` in the state
/// folder, naming the snapshot it was saved beside.
///
/// Only a time saver (`StateCacheFile`): a file made by another build or with other hidden fields, or beside any
/// snapshot but the one the next run compares with, is ignored, and that run prepares everyone (as a first build
/// does).
public struct PreparationCacheStore: Sendable {
    private let cache: StateCacheFile
    public var file: URL { cache.url }

    public init(stateDirectory: URL) {
        cache = StateCacheFile("preparations.bin", in: stateDirectory)
    }

    /// The stored cache when it was made in `context` (`PreparationCache.context`) beside the snapshot named
    /// `snapshot`, else nil.
    func load(context: RenderFingerprint, snapshot: String) -> PreparationCache? {
        guard let cache = PreparationCache(path: cache.url.path, context: context), cache.snapshot == snapshot
        else { return nil }
        return cache
    }

    /// Replaces the stored cache with `made`, saved beside the snapshot named `snapshot`; on failure, removes it
    /// and rethrows.
    func save(
        _ made: PreparationCache.Made, context: RenderFingerprint, snapshot: String
    ) throws(FileReplacement.Failure) {
        try written(made, context: context, snapshot: snapshot).commit()
    }

    /// The first half of `save`: the cache written beside its file, put in place by `commit`. On failure, removes
    /// the cache and rethrows.
    func prepareSave(
        _ made: PreparationCache.Made, context: RenderFingerprint, snapshot: String
    ) throws(FileReplacement.Failure) -> PendingStateSave {
        let pending = try written(made, context: context, snapshot: snapshot)
        return PendingStateSave(commit: { try pending.commit() }, discard: pending.discard)
    }

    private func written(
        _ made: PreparationCache.Made, context: RenderFingerprint, snapshot: String
    ) throws(FileReplacement.Failure) -> StateCacheFile.Pending {
        let header = PreparationCache.header(made, context: context, snapshot: snapshot)
        return try cache.prepare { write in
            if let failed = header.withUnsafeBytes(write) { return (0, failed) }
            let entries = made.write(write)
            return (header.count + entries.size, entries.failed)
        }
    }

    /// Forgets the stored cache.
    func clear() {
        cache.remove()
    }
}
