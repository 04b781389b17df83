/// How a render is handed the run before's search tokens (`SearchTokenCache`): the cache itself, or the way to read it.
///
/// Why a way to read it: a nightly's render needs the tokens only after it has made the directory, and reading them
/// takes a core for a few tens of milliseconds. Read by the pipeline once the snapshot was decoded, they held a core
/// while the run waited for the delta round; since the snapshot is decoded on threads of its own
/// (`ParallelWork.performOnOwnThreads`) the round comes in as the decode ends, and handed over as `loading` the tokens
/// are read beside the directory's making (`Benchmarks/ab-nightly.sh OLD NEW 12`, both orders: nightly medians
/// 0.500 -> 0.480 s and 0.530 -> 0.500 s; "sign-in and sync" 124 -> 95 ms and 149 -> 105 ms).
/// Loaded, they are read only as far as `StoredSearchTokens` says: most nights need no more than each entry's key.
public enum SearchTokenSource: Sendable {
    /// Tokens read already (tests, library callers).
    case given(SearchTokenCache)
    /// Read by the render, while it makes the directory; nil from the reader when there are none worth using.
    case loading(@Sendable () -> StoredSearchTokens?)

    /// The tokens: read now, when they are to be loaded (as far as `StoredSearchTokens` reads them at first).
    func tokens() -> StoredSearchTokens? {
        switch self {
        case .given(let cache): StoredSearchTokens(cache)
        case .loading(let load): load()
        }
    }
}
