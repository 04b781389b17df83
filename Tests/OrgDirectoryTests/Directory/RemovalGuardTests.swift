import Foundation
import Testing

@testable import OrgDirectory

@Suite("Mass-removal guard")
struct RemovalGuardTests {
    /// A diff with `count` leavers (people 0..<count).
    static func leaving(_ count: Int) -> DirectoryDiff {
        DirectoryDiff(leavers: SnapshotFixtures.people(count))
    }

    /// previous people, leavers, new people, limits, and whether the guard trips.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var previous: Int?
        var removals: Int
        var newCount: Int
        var maxRemovals = 500
        var maxPercent = 10.0
        var trips: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "nothing removed", previous: 1_000, removals: 0, newCount: 1_000, trips: false),
        Case(name: "exactly 10% passes", previous: 1_000, removals: 100, newCount: 900, trips: false),
        Case(name: "just over 10% trips", previous: 1_000, removals: 101, newCount: 899, trips: true),
        Case(name: "exactly 500 passes", previous: 100_000, removals: 500, newCount: 99_500, trips: false),
        Case(name: "501 trips though under 10%", previous: 100_000, removals: 501, newCount: 99_499, trips: true),
        Case(name: "60% of the tenant trips", previous: 1_500, removals: 900, newCount: 600, trips: true),
        Case(
            name: "custom count limit", previous: 1_000, removals: 6, newCount: 994, maxRemovals: 5,
            maxPercent: 100, trips: true),
        Case(
            name: "custom percent limit", previous: 1_000, removals: 30, newCount: 970, maxPercent: 2.5,
            trips: true),
        Case(
            name: "zero limits trip on any removal", previous: 10, removals: 1, newCount: 9, maxRemovals: 0,
            maxPercent: 0, trips: true),
        Case(name: "small directory: 2 of 10 is 20%", previous: 10, removals: 2, newCount: 8, trips: true),
        Case(name: "first run with people passes", previous: nil, removals: 0, newCount: 10, trips: false),
        Case(name: "empty after a full directory trips", previous: 10, removals: 10, newCount: 0, trips: true),
        Case(
            name: "empty on a first run trips", previous: nil, removals: 0, newCount: 0, maxRemovals: 1_000,
            maxPercent: 100, trips: true),
        Case(name: "empty after an accepted empty passes", previous: 0, removals: 0, newCount: 0, trips: false),
        Case(name: "growth from empty passes", previous: 0, removals: 0, newCount: 5, trips: false),
        Case(
            name: "empty trips even with limits at 100%", previous: 3, removals: 3, newCount: 0, maxRemovals: 1_000,
            maxPercent: 100, trips: true),
    ]

    @Test("trips on too many removals or an empty directory, and only then", arguments: cases)
    func thresholds(_ testCase: Case) {
        let guardrail = RemovalGuard(maxRemovals: testCase.maxRemovals, maxRemovalPercent: testCase.maxPercent)
        var tripped = false
        do {
            try guardrail.check(
                previousCount: testCase.previous, diff: Self.leaving(testCase.removals), newCount: testCase.newCount)
        } catch {
            tripped = true
        }
        #expect(tripped == testCase.trips)
    }

    @Test("the defaults are Entra Connect's 500 and 10%")
    func defaults() {
        #expect(RemovalGuard() == RemovalGuard(maxRemovals: 500, maxRemovalPercent: 10))
    }

    @Test("the message says what it saw, names a few leavers, and how to accept")
    func message() {
        let diff = Self.leaving(900)
        do {
            try RemovalGuard().check(previousCount: 1_500, diff: diff, newCount: 600)
            Issue.record("expected the guard to trip")
        } catch {
            guard case .tooManyRemovals(let removals, let previous, let newCount, let limit, let sample) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(removals == 900 && previous == 1_500 && newCount == 600)
            #expect(limit == .count(500))
            #expect(sample.count == 5)
            let text = error.errorDescription ?? ""
            #expect(text.contains("remove 900 of 1500 people (60%"))
            #expect(text.contains("--accept-removals"))
            #expect(text.contains(sample[0]))
        }
    }

    @Test("an empty directory has its own message")
    func emptyMessage() {
        #expect(throws: RemovalGuardError.emptyDirectory(previousCount: 42)) {
            try RemovalGuard().check(previousCount: 42, diff: Self.leaving(42), newCount: 0)
        }
        let text = RemovalGuardError.emptyDirectory(previousCount: nil).errorDescription ?? ""
        #expect(text.contains("empty") && text.contains("first run") && text.contains("--accept-removals"))
    }
}
