import Foundation
import Logging

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
        var ahead: [PageInFlight] = []
        defer { for page in ahead { page.outcome.cancel() } }
        var nextToFetch: URL? = query.firstPageURL(graphBase: graphBase)
        while true {
            if let url = nextToFetch {
                let entry = await fetchAhead(url)
                ahead.append(entry.page)
                nextToFetch = entry.next
                if nextToFetch != nil, ahead.count < window { continue }
            }
            guard !ahead.isEmpty else { break }
            let oldest = ahead.removeFirst()
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
                for page in ahead { page.outcome.cancel() }
                ahead.removeAll()
                nextToFetch = nextURL
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
    private struct PageInFlight {
        let url: URL
        let followedLink: String?
        let outcome: Task<PageOutcome, Never>
    }

    /// How a page fetched ahead turned out.
    private enum PageOutcome: Sendable {
        case decoded(GraphUsersPage)
        /// The body ended like JSON but did not parse.
        case undecodable
        /// The request itself failed (after the client's retries). Thrown only once the page before it has
        /// confirmed that this page's link was the right one.
        case failed(GraphError)
    }

    /// Fetches `url` and starts decoding it; returns the page and the URL to fetch next, read from the raw body
    /// (nil when there is none, it leaves the Graph origin, or the request failed).
    private func fetchAhead(_ url: URL) async -> (page: PageInFlight, next: URL?) {
        let body: Data
        do {
            body = try await client.getJSONData(from: url, headers: query.headers)
        } catch {
            let failure = Task { PageOutcome.failed(error) }
            return (PageInFlight(url: url, followedLink: nil, outcome: failure), nil)
        }
        let scanned = NextLinkScanner.nextLink(in: body)
        let decoding = Task {
            guard let page = try? GraphUsersPage.decode(from: body) else {
                return PageOutcome.undecodable
            }
            return .decoded(page)
        }
        guard let scanned, let nextURL = URL(string: scanned), nextURL.scheme != nil, client.origin.contains(nextURL)
        else {
            return (PageInFlight(url: url, followedLink: nil, outcome: decoding), nil)
        }
        return (PageInFlight(url: url, followedLink: scanned, outcome: decoding), nextURL)
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
