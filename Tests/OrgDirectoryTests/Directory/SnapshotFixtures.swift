import Foundation

@testable import OrgDirectory

/// Builders shared by the snapshot, diff, history and guard suites.
enum SnapshotFixtures {
    /// A user with every field set, none empty, so that clearing or changing any of them is a change (the equality
    /// and fingerprint tests change each in turn).
    static let everyField = User(
        id: "id-1", userPrincipalName: "ada@contoso.com", displayName: "Ada Lovelace", givenName: "Ada",
        surname: "Lovelace", mail: "ada@contoso.com", businessPhones: ["+1 555 0100", "+1 555 0101"],
        mobilePhone: "+1 555 0199", jobTitle: "Analyst", department: "Engines", officeLocation: "London",
        companyName: "Contoso", accountEnabled: true, userType: "Member", employeeId: "E1", preferredLanguage: "en-GB",
        manager: ManagerReference(id: "m-1", displayName: "Charles Babbage"), extra: ["b": "2", "a": "1"])

    /// A fully populated person; `index` varies every field so people differ.
    static func person(_ index: Int, department: String = "Sales") -> User {
        User(
            id: String(format: "%08d-0000-4000-8000-000000000000", index),
            userPrincipalName: "person\(index)@contoso.example",
            displayName: "Person \(index)",
            givenName: "Given\(index)",
            surname: "Surname\(index)",
            mail: "person\(index)@contoso.example",
            businessPhones: ["+1 425 555 \(String(format: "%04d", index % 10_000))"],
            mobilePhone: "+1 206 555 \(String(format: "%04d", index % 10_000))",
            jobTitle: "Engineer",
            department: department,
            officeLocation: "Building \(index % 7)",
            companyName: "Contoso",
            accountEnabled: true,
            userType: "Member",
            employeeId: "E\(index)",
            preferredLanguage: "en-US",
            manager: ManagerReference(id: "manager-\(index % 3)", displayName: "Manager \(index % 3)"),
            extra: ["city": "Redmond", "country": "US"])
    }

    /// People 0..<count.
    static func people(_ count: Int) -> [User] {
        (0..<count).map { person($0) }
    }

    /// A person whose every string is hostile: markup, quotes, controls, bidi overrides, emoji, non-BMP text.
    static func hostile() -> User {
        let nasty =
            "<script>alert('x')</script> & \"quotes\" \\ / \u{0}\u{1}\u{8}\t\n\u{c}\r\u{1b}[31m\u{7f}"
            + " \u{202e}evil\u{202c} \u{2028}👩‍👩‍👧 𝔘 Jürgen Ødegård Дмитрий 李 {{mustache}} [x](javascript:alert(1))"
        return User(
            id: "ffffffff-hostile", userPrincipalName: "evil\(nasty)@contoso.example", displayName: nasty,
            givenName: nasty, surname: nasty, mail: nasty, businessPhones: [nasty, "+1 (425) 555-0134"],
            mobilePhone: nasty, jobTitle: nasty, department: nasty, officeLocation: "../../etc/passwd",
            companyName: nasty, accountEnabled: false, userType: "Guest", employeeId: nasty,
            preferredLanguage: nasty, manager: ManagerReference(id: nasty, displayName: nasty),
            extra: [nasty: nasty, "a10": "1", "a9": "2", "B": "3", "_x": "4", "É": "5", "ｂ": "6"])
    }

    /// The night after `previous` among `everyone` (both in id order): of the known people about `churn / 3` percent
    /// left and `churn` percent moved office, and about `churn` percent of the others joined.
    static func night(
        after previous: [User], among everyone: [User], churn: Int, round: Int,
        using generator: inout ByteKeyOrderTests.SplitMix
    ) -> [User] {
        var next: [User] = []
        for person in everyone {
            let roll = Int.random(in: 0..<100, using: &generator)
            let known = previous.contains { $0.id == person.id }
            if known, roll < churn / 3 { continue }  // left
            if !known, roll >= churn { continue }  // did not join
            var person = person
            if roll < churn { person.officeLocation = "Moved in round \(round)" }
            next.append(person)
        }
        return next
    }

    static func metadata(at seconds: TimeInterval = 1_772_589_600, syncKind: SyncKind = .full) -> SnapshotMetadata {
        SnapshotMetadata(
            tenant: "contoso.example", graphHost: "graph.microsoft.com",
            takenAt: Date(timeIntervalSince1970: seconds), filter: "accountEnabled eq true",
            select: ["city", "country"], expandManager: true,
            counts: SnapshotCounts(fetched: 10, removed: [.guest: 2, .resource: 1]),
            orgdirVersion: "9.9.9", syncKind: syncKind, fingerprint: "abc123")
    }

    static func snapshot(_ people: [User], at seconds: TimeInterval = 1_772_589_600) -> Snapshot {
        Snapshot(metadata: metadata(at: seconds), people: people)
    }
}

/// A fresh folder under the system's temporary folder, removed when the test ends.
struct SnapshotTestFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orgdir-snapshot-tests-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Names in a subfolder (or the folder itself), sorted, hidden files included.
    func names(in subfolder: String? = nil) -> [String] {
        let folder = subfolder.map { url.appendingPathComponent($0) } ?? url
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}
