import Foundation
import OData

/// The `/users` request orgdir sends: which properties, which people, how many per page.
public struct UserQuery: Sendable, Equatable {
    public var select: [String]
    public var filter: String?
    public var pageSize: Int
    public var expandManager: Bool
    /// Advanced queries need `ConsistencyLevel: eventual` and `$count=true` (on every page).
    public var mode: QueryMode

    /// Builds the query from settings; the filter was validated when the settings loaded.
    public init(settings: Settings) throws(GraphError) {
        var names = GraphUserProperties.modelProperties
        for name in settings.select + settings.rules.requiredProperties where !names.contains(name) {
            names.append(name)
        }
        select = names
        filter = settings.filter
        pageSize = settings.pageSize
        expandManager = settings.expandManager
        mode = .standard
        if let filter {
            do {
                mode = try ODataFilter.parse(filter).userQueryMode()
            } catch {
                throw .malformedResponse(url: "settings filter", reason: String(describing: error))
            }
        }
    }

    public init(select: [String], filter: String?, pageSize: Int, expandManager: Bool, mode: QueryMode) {
        self.select = select
        self.filter = filter
        self.pageSize = pageSize
        self.expandManager = expandManager
        self.mode = mode
    }

    /// Headers that must go with every page, nextLinks included (Graph does not carry them over).
    public var headers: [(String, String)] {
        mode == .advanced ? [("ConsistencyLevel", "eventual")] : []
    }

    /// The first page's URL under `{graphAPI}{api-version}/`.
    public func firstPageURL(graphBase: URL) -> URL {
        var items: [(String, String)] = [("$select", select.joined(separator: ","))]
        if let filter { items.append(("$filter", filter)) }
        if mode == .advanced { items.append(("$count", "true")) }
        if expandManager { items.append(("$expand", "manager($select=id,displayName)")) }
        items.append(("$top", String(pageSize)))
        return QueryEncoding.url(graphBase.appendingPathComponent("users"), items)
    }

    /// `/users/$count` with the same filter, for the completeness check when a page carries no count.
    public func countURL(graphBase: URL) -> URL {
        var items: [(String, String)] = []
        if let filter { items.append(("$filter", filter)) }
        return QueryEncoding.url(graphBase.appendingPathComponent("users").appendingPathComponent("$count"), items)
    }
}

/// Percent-encodes OData query options so every server reads them the same way.
///
/// `+` must be encoded (many servers read it as a space, which breaks `startswith(mobilePhone,'+1')`), and
/// `#` must be (guest UPNs hold `#EXT#`); `$`, `,`, `(`, `)`, `'`, `/`, `:` and `=` stay readable.
enum QueryEncoding {
    private static let allowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~$,()'/:=*@!")

    static func url(_ base: URL, _ items: [(String, String)]) -> URL {
        guard !items.isEmpty else { return base }
        let query = items.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
        return URL(string: base.absoluteString + "?" + query) ?? base
    }

    static func escape(_ text: String) -> String {
        var allowedHere = allowed
        allowedHere.remove(charactersIn: "=")
        return text.addingPercentEncoding(withAllowedCharacters: allowedHere) ?? text
    }
}
