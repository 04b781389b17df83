import Foundation
import Testing

@testable import OrgDirectory

/// A person's events and "unchanged since" date as the page fingerprints read them (`SiteHistory.person`), in one
/// lookup by id: the newest event's date for someone with events, the history's start for anyone else.
@Suite("Site history looked up by person")
struct SiteHistoryLookupTests {
    static func date(_ day: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: day + "T02:00:00Z"))
    }

    @Test("someone with events gets them, newest first, and the date of the newest")
    func personWithEvents() throws {
        let history = SiteHistory(SiteFixtures.history, hiding: [])
        let jurgen = history.person(SiteFixtures.jurgen.id)
        #expect(jurgen.events == history.eventsByPerson[SiteFixtures.jurgen.id])
        #expect(jurgen.events.first?.date == (try Self.date("2026-03-04")))
        #expect(jurgen.unchangedSince == (try Self.date("2026-03-04")))
        let ivan = history.person(SiteFixtures.ivan.id)
        #expect(ivan.unchangedSince == (try Self.date("2026-03-01")))
    }

    @Test("anyone without an event shares the date of the history's start")
    func personWithoutEvents() throws {
        let history = SiteHistory(SiteFixtures.history, hiding: [])
        let nobody = history.person("someone-with-no-event")
        #expect(nobody.events.isEmpty)
        #expect(nobody.unchangedSince == (try Self.date("2026-02-28")))
        #expect(history.startsAt == (try Self.date("2026-02-28")))
    }

    @Test(
        "someone whose changes retention dropped shows the newest of them, by id and by position; a retained event still wins"
    )
    func personWithEarlierChanges() throws {
        var saved = SiteFixtures.history
        let directory = SiteDirectory(users: SiteFixtures.friendly, hiding: [])
        let withEvents = try #require(
            directory.people.first { !SiteHistory(saved, hiding: []).person($0).events.isEmpty })
        let without = try #require(directory.people.first { SiteHistory(saved, hiding: []).person($0).events.isEmpty })
        let dropped = try Self.date("2026-02-20")
        saved.earlier = [without.user.id: dropped, withEvents.user.id: dropped]
        let history = SiteHistory(saved, hiding: [])
        let placed = history.placed(in: directory)
        #expect(history.person(without.user.id).unchangedSince == dropped)
        #expect(placed.person(without).unchangedSince == dropped)
        #expect(placed.person(without).events.isEmpty)
        let newest = try #require(history.person(withEvents.user.id).events.first?.date)
        #expect(placed.person(withEvents).unchangedSince == newest)
        #expect(history.person("someone-with-no-event").unchangedSince == (try Self.date("2026-02-28")))
        #expect(history.stamp(at: dropped) == SiteStamp(dropped))
    }

    @Test("an empty history has no events and no date for anyone")
    func emptyHistory() {
        let history = SiteHistory(ChangeHistory(), hiding: [])
        let anyone = history.person(SiteFixtures.jurgen.id)
        #expect(anyone.events.isEmpty)
        #expect(anyone.unchangedSince == nil)
        #expect(history.person(SiteFixtures.ivan.id).unchangedSince == nil)
    }

    @Test("placed in a directory, a person is found by display position as by id, and anyone else still by id")
    func placedByPosition() throws {
        let history = SiteHistory(SiteFixtures.history, hiding: [])
        let directory = SiteDirectory(users: SiteFixtures.friendly, hiding: [])
        let placed = history.placed(in: directory)
        #expect(directory.people.contains { !history.person($0.user.id).events.isEmpty }, "someone has events")
        #expect(directory.people.contains { history.person($0.user.id).events.isEmpty }, "someone has none")
        for person in directory.people {
            let byID = history.person(person.user.id)
            #expect(placed.person(person).events == byID.events, "\(person.user.id)")
            #expect(placed.person(person).unchangedSince == byID.unchangedSince, "\(person.user.id)")
        }
        // Not the directory's own person at that position (a person made alone): found by id.
        let alone = SitePerson(
            user: SiteFixtures.jurgen, index: 0, slug: "jurgen", letter: "m", departmentFile: nil)
        #expect(placed.person(alone).events == history.person(SiteFixtures.jurgen.id).events)
        #expect(!placed.person(alone).events.isEmpty)
    }

    @Test("in a directory where two people share an id, everyone is found by id")
    func sharedIDsAreNotPlaced() {
        let history = SiteHistory(SiteFixtures.history, hiding: [])
        var twin = SiteFixtures.jurgen
        twin.displayName = "Jürgen Twin"
        let directory = SiteDirectory(users: SiteFixtures.friendly + [twin], hiding: [])
        let placed = history.placed(in: directory)
        for person in directory.people {
            #expect(placed.person(person).events == history.person(person.user.id).events)
            #expect(placed.person(person).unchangedSince == history.person(person.user.id).unchangedSince)
        }
    }

    @Test("a date's stamp is made once, and shows whole seconds: the fingerprint's number for a stamp is its texts'")
    func stampsByDate() throws {
        let history = SiteHistory(SiteFixtures.history, hiding: [])
        let newest = try #require(history.person(SiteFixtures.jurgen.id).unchangedSince)
        #expect(history.stamp(at: newest) == SiteStamp(newest))
        #expect(history.stamp(at: newest).date == newest)
        // Two dates in one second show the same texts and give the same number; a second later, both differ.
        let start = try Self.date("2026-03-04")
        let within = start.addingTimeInterval(0.75)
        let next = start.addingTimeInterval(1)
        #expect(SiteStamp.seconds(start) == SiteStamp.seconds(within))
        #expect(SiteStamp(start).iso == SiteStamp(within).iso && SiteStamp(start).display == SiteStamp(within).display)
        #expect(SiteStamp.seconds(start) != SiteStamp.seconds(next))
        #expect(SiteStamp(start).iso != SiteStamp(next).iso)
    }
}
