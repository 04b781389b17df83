import Foundation
import Logging
import Synchronization

/// Downloads every user the query selects, page by page, following `@odata.nextLink` verbatim.
public struct UserFetcher: Sendable {
    private let client: GraphClient
    private let graphBase: URL
    private let query: UserQuery
    /// Ask `/users/$count` when the pages carry no count, and fail on a shortfall.
    private let verifyCount: Bool

    public init(client: GraphClient, graphBase: URL, query: UserQuery, verifyCount: Bool = true) {
        self.client = client
        self.graphBase = graphBase
        self.query = query
        self.verifyCount = verifyCount
    }

    /// Fetches all pages; `onPage` sees each page as it arrives (for progress and streaming normalization), in
    /// page order.
    ///
    /// When Graph reports a total (`@odata.count`, advanced queries), the number received must reach it.
    /// Requests go one after another (nextLinks are opaque and each one exists only in the page before), but
    /// each page's link is read from its raw bytes as soon as it arrives, so the next request starts at once
    /// while the page decodes in a task of its own: decoding (the slow part against a fast server) runs on
    /// every core, a few pages ahead. Each link followed that way is checked against the decoded page before
    /// anything after it is used; a mismatch drops the pages fetched on the wrong guess.
    public func fetchAll(
        onPage: @Sendable (_ page: [GraphUser], _ progress: FetchProgress) async throws(GraphError) -> Void
    ) async throws(GraphError) -> FetchResult {
        var progress = FetchProgress(pages: 0, users: 0, expectedTotal: nil)
        let window = max(2, ProcessInfo.processInfo.activeProcessorCount)
        var chain = PageChain(from: query.firstPageURL(graphBase: graphBase), window: window, fetcher: self)
        defer { chain.cancel() }
        while let oldest = await chain.nextPage() {
            let page: GraphUsersPage
            switch await oldest.outcome.value {
            case .decoded(let decoded): page = decoded
            case .failed(let error): throw error
            case .undecodable:
                // Rare: a body that looked complete but is not valid JSON. Fetch this page again, decoding in the
                // retry loop.
                page = try await client.getJSON(GraphUsersPage.self, from: oldest.url, headers: query.headers)
            }
            if progress.pages == 0, let count = page.count { progress.expectedTotal = count }
            progress.pages += 1
            progress.users += page.value.count
            try await onPage(page.value, progress)
            guard let next = page.nextLink, !next.isEmpty else {
                // The last page: anything fetched after it followed a link that was not one (dropped by `defer`).
                break
            }
            guard let nextURL = URL(string: next), nextURL.scheme != nil else {
                throw .malformedResponse(
                    url: oldest.url.absoluteString, reason: "@odata.nextLink '\(next)' is not an absolute URL")
            }
            guard client.origin.contains(nextURL) else {
                throw .untrustedLink(url: next, expected: client.origin.description)
            }
            if oldest.followedLink != next {
                // Fetched ahead on a wrong guess (or not at all): follow the decoded page's own link.
                chain.cancel()
                chain = PageChain(from: nextURL, window: window, fetcher: self)
            }
        }
        var warnings: [String] = []
        if progress.expectedTotal == nil, verifyCount {
            switch await countUsers() {
            case .success(let count): progress.expectedTotal = count
            case .failure(let error):
                warnings.append(
                    "could not check completeness with /users/$count (\(error.errorDescription ?? "error"))")
            }
        }
        if let expected = progress.expectedTotal, progress.users < expected {
            throw .incomplete(expected: expected, received: progress.users)
        }
        return FetchResult(
            pages: progress.pages, users: progress.users, expectedTotal: progress.expectedTotal, warnings: warnings)
    }

    /// One page on its way: where it came from, the link its raw body names (followed already), and its
    /// decoding, which runs in a task of its own.
    fileprivate struct PageInFlight: Sendable {
        let url: URL
        let followedLink: String?
        let outcome: Task<PageOutcome, Never>
    }

    /// How a page fetched ahead turned out.
    fileprivate enum PageOutcome: Sendable {
        case decoded(GraphUsersPage)
        /// The body ended like JSON but did not parse.
        case undecodable
        /// The request itself failed (after the client's retries). Thrown only once the page before it has
        /// confirmed that this page's link was the right one.
        case failed(GraphError)
    }

    /// A fetched page and the URL to fetch after it, read from its raw body.
    fileprivate struct FetchedPage: Sendable {
        let page: PageInFlight
        let next: URL?
    }

    /// Where the requests run: a thread of their own, so a request never waits behind page decodes for one of
    /// the cooperative pool's threads.
    fileprivate static let requestExecutor = DispatchQueueTaskExecutor(label: "orgdir.graph-requests")

    /// Fetches `url` and starts decoding it; returns the page and the URL to fetch next, read from the raw body
    /// (nil when there is none, it leaves the Graph origin, or the request failed).
    fileprivate func fetchAhead(_ url: URL) async -> FetchedPage {
        let body: Data
        do {
            body = try await client.getJSONData(from: url, headers: query.headers)
        } catch {
            let failure = Task { PageOutcome.failed(error) }
            return FetchedPage(page: PageInFlight(url: url, followedLink: nil, outcome: failure), next: nil)
        }
        let scanned = NextLinkScanner.nextLink(in: body)
        let decoding = Task(executorPreference: globalConcurrentExecutor) {
            guard let page = try? GraphUsersPage.decode(from: body) else {
                return PageOutcome.undecodable
            }
            return .decoded(page)
        }
        guard let scanned, let nextURL = URL(string: scanned), nextURL.scheme != nil, client.origin.contains(nextURL)
        else {
            return FetchedPage(page: PageInFlight(url: url, followedLink: nil, outcome: decoding), next: nil)
        }
        return FetchedPage(page: PageInFlight(url: url, followedLink: scanned, outcome: decoding), next: nextURL)
    }

    /// `GET /users/$count` with the same filter (an advanced query, so `ConsistencyLevel: eventual`).
    private func countUsers() async -> Result<Int, GraphError> {
        do {
            let text = try await client.getText(
                from: query.countURL(graphBase: graphBase), headers: [("ConsistencyLevel", "eventual")])
            // Graph's text/plain count may start with a UTF-8 byte order mark; whitespace does not cover it.
            let digits = text.trimmingCharacters(
                in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
            guard let count = Int(digits) else {
                return .failure(.malformedResponse(url: "users/$count", reason: "'\(text.prefix(40))' is not a number"))
            }
            return .success(count)
        } catch {
            return .failure(error)
        }
    }
}

/// One chain of page requests: each request starts the moment the link before it is read from the raw body, in
/// a task on the request executor, never waiting for the pages before it to be decoded or handed on. It runs at
/// most `window` pages ahead of the pages taken with `nextPage`, so a fast server cannot fill memory.
private struct PageChain {
    private var pages: AsyncStream<UserFetcher.PageInFlight>.Iterator
    private let credits: FetchCredits

    init(from url: URL, window: Int, fetcher: UserFetcher) {
        let (pages, continuation) = AsyncStream.makeStream(of: UserFetcher.PageInFlight.self)
        let credits = FetchCredits(window)
        self.pages = pages.makeAsyncIterator()
        self.credits = credits
        Task(executorPreference: UserFetcher.requestExecutor) {
            var next: URL? = url
            while let current = next, await credits.take() {
                let fetched = await fetcher.fetchAhead(current)
                continuation.yield(fetched.page)
                next = fetched.next
            }
            continuation.finish()
        }
    }

    /// The next page in order, nil when the chain has ended (after its last page, or when cancelled).
    mutating func nextPage() async -> UserFetcher.PageInFlight? {
        guard let page = await pages.next() else { return nil }
        credits.give()
        return page
    }

    /// Stops the chain: no request starts after this, and pages already fetched are dropped. A request in flight
    /// is left to finish rather than cancelled: cancelling a task inside `URLSession.data(for:)` while its response
    /// is being delivered deadlocks FoundationNetworking on Linux (the cancellation handler, run under the task's
    /// status lock, waits for the session's queue, which waits for that lock to resume the request). A sandbox
    /// answering in 2 ms instead of 44 made that race common enough to hang a test.
    func cancel() {
        credits.close()
    }
}

/// How many more pages a `PageChain` may fetch before the consumer takes one.
private final class FetchCredits: Sendable {
    private struct State {
        var available: Int
        var waiter: CheckedContinuation<Bool, Never>?
        var closed = false
    }
    private let state: Mutex<State>

    init(_ count: Int) {
        state = Mutex(State(available: count))
    }

    /// Waits for a credit and takes it; false once the chain is closed.
    func take() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer: Bool? = state.withLock { state in
                if state.closed { return false }
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiter = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Gives one credit back (a page was taken).
    func give() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.available += 1
            return nil
        }
        waiter?.resume(returning: true)
    }

    /// No more credits: a waiting `take` returns false, and so does every later one.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: false)
    }
}

/// How far a fetch has come.
public struct FetchProgress: Sendable, Equatable {
    public var pages: Int
    public var users: Int
    /// Graph's count, when the query asked for one.
    public var expectedTotal: Int?
}

/// What a finished fetch saw.
public struct FetchResult: Sendable, Equatable {
    public var pages: Int
    public var users: Int
    public var expectedTotal: Int?
    public var warnings: [String] = []
}
