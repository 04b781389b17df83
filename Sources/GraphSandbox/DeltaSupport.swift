/// How much of `/users/delta` the sandbox offers, to stand in for Graph-compatible servers that lack some of it.
public enum DeltaSupport: String, Sendable, CaseIterable {
    /// Everything Graph documents, `$deltatoken=latest` included.
    case complete
    /// Delta rounds, but no "sync from now": `$deltatoken=latest` is refused.
    case withoutLatest
    /// No `/users/delta` at all, as on clouds and tenant types without change tracking.
    case none
}

/// What a changed user looks like in a delta round.
public enum DeltaRecords: String, Sendable, CaseIterable {
    /// Graph's default: the user with every selected property, changed or not.
    case full
    /// Only `id` and the properties that changed, as with `Prefer: return=minimal` or a server that sends
    /// "id plus at least the updated properties".
    case changedOnly
}

/// The order `GET /users` lists people in when the request names none (`$orderby`), `$filter` and `$search`
/// aside: Graph promises no order, so a client must not depend on one.
public enum ListingOrder: String, Sendable, CaseIterable {
    /// Ascending ids, the sandbox's own order.
    case id
    /// Descending ids: a stand-in for a service that lists people in an order of its own (Graph's listings are
    /// not in id order), so that a client's handling of any order is exercised.
    case descendingID
    /// By a hash of the id: an order that looks random (as a service's own order looks to a client), stable
    /// as people come and go.
    case scrambled
}
