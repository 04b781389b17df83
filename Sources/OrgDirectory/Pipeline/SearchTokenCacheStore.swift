import Foundation

/// Where a run keeps everyone's search tokens for the next one (`SearchTokenCache`): `search-tokens.bin` in the
/// state folder.
///
/// Only a time saver (`StateCacheFile`): a file made by another version or with other hidden fields is ignored
/// too, so the next run tokenizes everyone (as a first build does).
public struct SearchTokenCacheStore: Sendable {
    private let cache: StateCacheFile
    public var file: URL { cache.url }

    public init(stateDirectory: URL) {
        cache = StateCacheFile("search-tokens.bin", in: stateDirectory)
    }

    /// The stored cache when it was made in `context` (`SearchTokenCache.context`), else nil.
    func load(context: RenderFingerprint) -> SearchTokenCache? {
        cache.read { SearchTokenCache.decode($0, context: context) }
    }

    /// Replaces the stored cache; on failure, removes it and rethrows.
    func save(_ tokens: SearchTokenCache, context: RenderFingerprint) throws {
        try cache.replace(encodingInPieces: { out throws(StateCacheFile.WriteFailure) in
            try tokens.encode(context: context, into: &out)
        })
    }

    /// Forgets the stored cache.
    func clear() {
        cache.remove()
    }
}
