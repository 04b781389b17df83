import Foundation

/// A state file written for the next run but not yet in place: written while the site is published, put in place
/// (`commit`) once the publish succeeded, dropped (`discard`) when it failed, so the state never describes a site that
/// was not published.
///
/// Why: saved after the publish, a 100,000-person nightly's four state caches were some 20 ms in which the moves of
/// the publish, on one core, had already left the other idle for some 45 ms.
struct PendingStateSave: Sendable {
    private let put: @Sendable () throws -> Void
    private let drop: @Sendable () -> Void

    init(commit: @escaping @Sendable () throws -> Void, discard: @escaping @Sendable () -> Void) {
        put = commit
        drop = discard
    }

    /// Puts the file in place; on failure the store has forgotten it (the next run does the work itself).
    func commit() throws {
        try put()
    }

    /// Drops the new contents; the stored file stays as it was.
    func discard() {
        drop()
    }
}

/// One state cache's save as a build makes it (`PendingStateSave`): written, or the warning why it could not be,
/// worded by the cache's `failure` for the reason.
struct StateCacheSave: Sendable {
    private let pending: PendingStateSave?
    private let warning: String?
    private let failure: @Sendable (_ reason: String) -> String

    /// Writes the cache by `prepare`; nothing to save is `prepare` returning nil.
    init(failure: @escaping @Sendable (_ reason: String) -> String, _ prepare: () throws -> PendingStateSave?) {
        self.failure = failure
        do {
            pending = try prepare()
            warning = nil
        } catch {
            pending = nil
            warning = failure(Self.reason(error))
        }
    }

    /// Puts the cache in place; the warning when it was not written or cannot be put in place.
    func commit() -> String? {
        guard let pending else { return warning }
        do {
            try pending.commit()
            return nil
        } catch {
            return failure(Self.reason(error))
        }
    }

    /// Drops what was written (the publish failed).
    func discard() {
        pending?.discard()
    }

    private static func reason(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }
}
