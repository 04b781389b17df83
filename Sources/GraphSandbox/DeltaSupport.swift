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
