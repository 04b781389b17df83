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

    /// Fetches all pages; `onPage` sees each page as it arrives (for progress and streaming normalization).
    ///
    /// When Graph reports a total (`@odata.count`, advanced queries), the number received must reach it.
    /// Pages are fetched one after another: nextLinks are opaque and each one exists only in the page before.
    public func fetchAll(
        onPage: @Sendable (_ page: [GraphUser], _ progress: FetchProgress) async throws(GraphError) -> Void
    ) async throws(GraphError) -> FetchResult {
        var url = query.firstPageURL(graphBase: graphBase)
        var progress = FetchProgress(pages: 0, users: 0, expectedTotal: nil)
        let client = client
        let headers = query.headers
        // A basic query's pages carry no `@odata.count`: ask `/users/$count` alongside the first page rather
        // than after the last, so the completeness check costs no round trip of its own (the count then
        // describes the directory when the listing began, as an advanced query's first page would).
        let countProbe: Task<Result<Int, GraphError>, Never>? =
            verifyCount && query.mode != .advanced ? Task { await countUsers() } : nil
        defer { countProbe?.cancel() }
        var body = try await client.getJSONData(from: url, headers: headers)
        while true {
            // The next request starts as soon as its link is known, so decoding this page overlaps the
            // network wait for the next one. The link is checked again against the fully decoded page.
            let scanned = NextLinkScanner.nextLink(in: body)
            var prefetch: Task<Result<Data, GraphError>, Never>?
            if let scanned, let nextURL = URL(string: scanned), client.origin.contains(nextURL) {
                prefetch = Task { await Self.fetchBody(client: client, url: nextURL, headers: headers) }
            }
            let page: GraphUsersPage
            do {
                page = try JSONDecoder().decode(GraphUsersPage.self, from: body)
            } catch {
                prefetch?.cancel()
                // Rare: a body that looked complete but is not valid JSON. Fetch this page again, decoding in the
                // retry loop.
                page = try await client.getJSON(GraphUsersPage.self, from: url, headers: headers)
            }
            if progress.pages == 0, let count = page.count { progress.expectedTotal = count }
            progress.pages += 1
            progress.users += page.value.count
            do {
                try await onPage(page.value, progress)
            } catch {
                prefetch?.cancel()
                throw error
            }
            guard let next = page.nextLink, !next.isEmpty else {
                prefetch?.cancel()
                break
            }
            guard let nextURL = URL(string: next), nextURL.scheme != nil else {
                prefetch?.cancel()
                throw .malformedResponse(
                    url: url.absoluteString, reason: "@odata.nextLink '\(next)' is not an absolute URL")
            }
            guard client.origin.contains(nextURL) else {
                prefetch?.cancel()
                throw .untrustedLink(url: next, expected: client.origin.description)
            }
            if let prefetch, scanned == next {
                body = try await prefetch.value.get()
            } else {
                prefetch?.cancel()
                body = try await client.getJSONData(from: nextURL, headers: headers)
            }
            url = nextURL
        }
        var warnings: [String] = []
        if progress.expectedTotal == nil, verifyCount {
            // An advanced query whose first page carried no count after all: ask now.
            let counted = if let countProbe { await countProbe.value } else { await countUsers() }
            switch counted {
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

    /// One page's raw body as a Result, for the prefetching task.
    private static func fetchBody(
        client: GraphClient, url: URL, headers: [(String, String)]
    ) async -> Result<Data, GraphError> {
        do {
            return .success(try await client.getJSONData(from: url, headers: headers))
        } catch {
            return .failure(error)
        }
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
