/// Stops a run that would remove too many people before anything is published or recorded.
///
/// A bad night (an expired permission, a filter typo, a half-failed fetch) looks like mass departure. Entra
/// Connect stops at 500 deletions for the same reason; orgdir also stops at a share of the directory, and
/// always at an empty result. `--accept-removals` (checked by the caller) lets a real reorganization through.
///
/// The rules, in order:
/// 1. An empty new directory trips the guard, on a first run too (an empty phone book is never what anyone
///    scheduled), except when the previous snapshot was itself empty (that was accepted once already, and
///    nothing more would be removed).
/// 2. With no previous snapshot, or an empty one, nothing can be removed: the run passes.
/// 3. More than `maxRemovals` leavers trips it.
/// 4. More than `maxRemovalPercent` percent of the previous snapshot leaving trips it.
/// "More than" is strict: with the defaults, 500 leavers pass and 501 trip; 10% passes, 10.1% trips.
public struct RemovalGuard: Sendable, Equatable {
    public var maxRemovals: Int
    public var maxRemovalPercent: Double

    public init(maxRemovals: Int = 500, maxRemovalPercent: Double = 10) {
        self.maxRemovals = maxRemovals
        self.maxRemovalPercent = maxRemovalPercent
    }

    /// Throws when the run should stop. `previousCount` is nil on a first run (no snapshot yet).
    public func check(previousCount: Int?, diff: DirectoryDiff, newCount: Int) throws(RemovalGuardError) {
        // Named only when the guard trips: sorting 100,000 leavers for nothing would be waste.
        func sample() -> [String] { DiffFormatter.byName(diff.leavers).prefix(5).map(\.displayName) }
        if newCount == 0, previousCount != 0 {
            throw .emptyDirectory(previousCount: previousCount)
        }
        guard let previousCount, previousCount > 0 else { return }
        let removals = diff.leavers.count
        if removals > maxRemovals {
            throw .tooManyRemovals(
                removals: removals, previousCount: previousCount, newCount: newCount,
                limit: .count(maxRemovals), sample: sample())
        }
        // Compared in whole numbers (removals × 100 > percent × previous) so 10% of 1,000 is exactly 100.
        if Double(removals) * 100 > maxRemovalPercent * Double(previousCount) {
            throw .tooManyRemovals(
                removals: removals, previousCount: previousCount, newCount: newCount,
                limit: .percent(maxRemovalPercent), sample: sample())
        }
    }
}
