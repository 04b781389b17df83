import Foundation

/// Fetches users through `/users/delta`: a full round that ends in a deltaLink, or the changes since one.
///
/// Delta accepts only `$select` (no `$top`, `$expand`, `$orderby`, and `$filter` only on ids), so the caller
/// applies the configured filter locally. Links are followed verbatim and must stay on the Graph origin.
public struct DeltaFetcher: Sendable {
    private let client: GraphClient
    private let graphBase: URL
    private let select: [String]

    public init(client: GraphClient, graphBase: URL, select: [String]) {
        self.client = client
        self.graphBase = graphBase
        self.select = select
    }

    /// The first request of a full round.
    public var initialURL: URL {
        QueryEncoding.url(deltaURL, [("$select", select.joined(separator: ","))])
    }

    /// "Sync from now": a deltaLink for changes after this moment, without listing anyone.
    public var latestURL: URL {
        QueryEncoding.url(deltaURL, [("$select", select.joined(separator: ",")), ("$deltatoken", "latest")])
    }

    private var deltaURL: URL {
        graphBase.appendingPathComponent("users").appendingPathComponent("delta")
    }

    /// A user's manager (`GET /users/{id}/manager`), for someone whose delta record did not say; nil when
    /// they have none.
    public func manager(of id: String) async throws(GraphError) -> ManagerReference? {
        let url = try userURL(id, "manager", [("$select", "id,displayName")])
        do {
            let manager = try await client.getJSON(GraphManager.self, from: url)
            return manager.id.map { ManagerReference(id: $0, displayName: manager.displayName) }
        } catch .service(let error) where error.status == 404 {
            return nil
        }
    }

    /// `{graphBase}/users/{id}[/{leaf}]?{items}`, the id percent-encoded.
    private func userURL(_ id: String, _ leaf: String?, _ items: [(String, String)]) throws(GraphError) -> URL {
        var text = graphBase.appendingPathComponent("users").absoluteString + "/" + QueryEncoding.escape(id)
        if let leaf { text += "/" + leaf }
        guard let base = URL(string: text) else {
            throw .malformedResponse(url: text, reason: "the user id cannot be put in a URL")
        }
        return QueryEncoding.url(base, items)
    }

    /// One user, read whole (`GET /users/{id}`) when a delta record carried too little to place them;
    /// nil when the user is gone.
    public func user(id: String, expandManager: Bool) async throws(GraphError) -> GraphUser? {
        var items = [("$select", select.filter { $0 != "manager" }.joined(separator: ","))]
        if expandManager { items.append(("$expand", "manager($select=id,displayName)")) }
        let url = try userURL(id, nil, items)
        do {
            return try await client.getJSON(GraphUser.self, from: url)
        } catch .service(let error) where error.status == 404 {
            return nil
        }
    }

    /// Follows a round from `start` to its deltaLink; `onPage` sees each page's items.
    public func round(
        from start: URL,
        onPage: @Sendable (_ items: [GraphUser], _ progress: FetchProgress) async throws(GraphError) -> Void
    ) async throws(GraphError) -> DeltaRound {
        var url = start
        var progress = FetchProgress(pages: 0, users: 0, expectedTotal: nil)
        while true {
            let page = try await client.getJSON(GraphUsersPage.self, from: url)
            progress.pages += 1
            progress.users += page.value.count
            try await onPage(page.value, progress)
            if let next = page.nextLink, !next.isEmpty {
                url = try trusted(next, from: url)
                continue
            }
            guard let deltaLink = page.deltaLink, !deltaLink.isEmpty else {
                throw .malformedResponse(
                    url: url.absoluteString, reason: "a delta page carried neither @odata.nextLink nor @odata.deltaLink"
                )
            }
            _ = try trusted(deltaLink, from: url)
            return DeltaRound(pages: progress.pages, items: progress.users, deltaLink: deltaLink)
        }
    }

    /// Parses a link from the server and checks it stays on the Graph origin.
    public func trusted(_ link: String, from url: URL) throws(GraphError) -> URL {
        guard let next = URL(string: link), next.scheme != nil else {
            throw .malformedResponse(url: url.absoluteString, reason: "'\(link)' is not an absolute URL")
        }
        guard client.origin.contains(next) else {
            throw .untrustedLink(url: link, expected: client.origin.description)
        }
        return next
    }
}

/// What one delta round saw.
public struct DeltaRound: Sendable, Equatable {
    public var pages: Int
    public var items: Int
    public var deltaLink: String
}

extension GraphError {
    /// Graph refused a delta token: it expired (7 days for directory objects) or the service needs a resync.
    public var isExpiredDeltaToken: Bool {
        guard case .service(let error) = self else { return false }
        let code = error.code.lowercased()
        return error.status == 410 || code == "syncstatenotfound" || code == "resyncrequired"
            || code == "syncstateinvalid"
    }
}
