import Foundation

/// Where a run keeps everyone's search tokens for the next one (`SearchTokenCache`): `search-tokens.bin` in the
/// state folder.
///
/// Only a time saver: a file that is missing, damaged or made by another version or with other hidden fields is
/// ignored, and one that cannot be written is removed, so the next run tokenizes everyone (as a first build does).
public struct SearchTokenCacheStore: Sendable {
    public let file: URL

    public init(stateDirectory: URL) {
        file = stateDirectory.appendingPathComponent("search-tokens.bin")
    }

    /// The stored cache when it was made in `context` (`SearchTokenCache.context`), else nil.
    func load(context: RenderFingerprint) -> SearchTokenCache? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return SearchTokenCache.decode(Array(data), context: context)
    }

    /// Replaces the stored cache (a temporary file renamed over it); on failure, removes it and rethrows.
    func save(_ cache: SearchTokenCache, context: RenderFingerprint) throws {
        do {
            try Data(cache.encode(context: context)).write(to: file, options: .atomic)
        } catch {
            clear()
            throw error
        }
    }

    /// Forgets the stored cache.
    func clear() {
        try? FileManager.default.removeItem(at: file)
    }
}
