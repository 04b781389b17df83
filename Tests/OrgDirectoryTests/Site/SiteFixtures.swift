import Foundation
import Testing

@testable import OrgDirectory

/// Crafted people for site tests: international names, hostile values, managers and reports.
enum SiteFixtures {
    /// Hostile strings every context must neutralize.
    static let hostile: [String] = [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[x](javascript:alert(1))",
        "{{mustache}} {{{triple}}}",
        "evil\u{202E}gnp.exe",
        "👩‍👩‍👧‍👦 Family\u{200D}",
        String(repeating: "Ä", count: 256),
        "../../etc/passwd",
        "a\"b'c&d<e>f\\g,h;i\nj",
        "=cmd|' /C calc'!A0",
        "__proto__ constructor",
    ]

    static let jurgen = User(
        id: "0a1b2c3d-0000-4000-8000-000000000001", userPrincipalName: "juergen.mueller@contoso.com",
        displayName: "Jürgen Müller", givenName: "Jürgen", surname: "Müller", mail: "juergen.mueller@contoso.com",
        businessPhones: ["+1 425 555 0134"], mobilePhone: "+49 (0)170 1234567", jobTitle: "Senior Engineer",
        department: "Platform Engineering", officeLocation: "Berlin 4.12", companyName: "Contoso")

    static let boss = User(
        id: "0a1b2c3d-0000-4000-8000-000000000002", userPrincipalName: "sofia@contoso.com",
        displayName: "Søren Østergaard", givenName: "Søren", surname: "Østergaard", mail: "soren@contoso.com",
        businessPhones: ["+45 33 12 34 56"], jobTitle: "Head of Platform", department: "Platform Engineering")

    static let ivan = User(
        id: "0a1b2c3d-0000-4000-8000-000000000003", userPrincipalName: "ivan.petrov@contoso.com",
        displayName: "Иван Петров", givenName: "Иван", surname: "Петров", mail: "ivan.petrov@contoso.com",
        businessPhones: ["+7 495 123-45-67"], jobTitle: "Analyst", department: "Finance",
        manager: ManagerReference(id: "0a1b2c3d-0000-4000-8000-000000000002", displayName: "Søren Østergaard"))

    static let strasse = User(
        id: "0a1b2c3d-0000-4000-8000-000000000004", userPrincipalName: "g.strasser@contoso.com",
        displayName: "Gertrud Straßer", givenName: "Gertrud", surname: "Straßer", mail: "g.strasser@contoso.com",
        jobTitle: "Accountant", department: "Finance", officeLocation: "Wien")

    static let chen = User(
        id: "0a1b2c3d-0000-4000-8000-000000000005", userPrincipalName: "wang.xiaoming@contoso.com",
        displayName: "王小明", givenName: "小明", surname: "王", businessPhones: ["(010) 6552-0199"],
        department: "研发部")

    static let greek = User(
        id: "0a1b2c3d-0000-4000-8000-000000000006", userPrincipalName: "n.papadopoulos@contoso.com",
        displayName: "Νίκος Παπαδόπουλος", givenName: "Νίκος", surname: "Παπαδόπουλος", department: "Sales")

    /// A user whose every field is hostile.
    static func hostileUser(_ value: String, number: Int) -> User {
        User(
            id: "hostile-\(number)", userPrincipalName: value + "@contoso.com", displayName: value,
            givenName: value, surname: value, mail: "x\(number)@contoso.com", businessPhones: [value],
            mobilePhone: value, jobTitle: value, department: value, officeLocation: value, companyName: value,
            manager: ManagerReference(id: jurgen.id, displayName: value), extra: ["extensionAttribute1": value])
    }

    static var friendly: [User] {
        var jurgen = jurgen
        jurgen.manager = ManagerReference(id: boss.id, displayName: boss.displayName)
        return [jurgen, boss, ivan, strasse, chen, greek]
    }

    static var all: [User] {
        friendly + hostile.enumerated().map { hostileUser($1, number: $0) }
    }

    /// A snapshot side named after its UTC day, taken at 02:00.
    static func side(_ day: String, people: Int) -> DiffReport.Side {
        let date = ISO8601DateFormatter().date(from: day + "T02:00:00Z") ?? Date(timeIntervalSince1970: 0)
        return DiffReport.Side(
            name: day + "T02-00-00Z.json", takenAt: date, people: people, tenant: "contoso", graphHost: "graph")
    }

    /// Three nights: Иван joined on 03-01; on 03-04 Jürgen moved from Sales (and his mobile changed) and a
    /// hostile person left; on 03-05 every hostile value moved someone.
    static var history: ChangeHistory {
        var mover = jurgen
        mover.department = "Sales"
        let moved = PersonChange(
            id: jurgen.id, displayName: jurgen.displayName,
            fieldChanges: [
                FieldChange(field: "mobilePhone", old: "+49 170 0000001", new: jurgen.mobilePhone),
                FieldChange(field: "department", old: "Sales", new: "Platform Engineering"),
            ])
        let hostileMoves = hostile.enumerated().map { number, value in
            PersonChange(
                id: "hostile-\(number)", displayName: value,
                fieldChanges: [FieldChange(field: "officeLocation", old: value, new: "Berlin")])
        }
        return ChangeHistory(
            entries: [
                DiffReport(
                    old: side("2026-02-28", people: 5), new: side("2026-03-01", people: 6),
                    diff: DirectoryDiff(joiners: [ivan])),
                DiffReport(
                    old: side("2026-03-01", people: 6), new: side("2026-03-04", people: 6),
                    diff: DirectoryDiff(
                        leavers: [hostileUser("<script>alert(2)</script>", number: 99)], changed: [moved])),
                DiffReport(
                    old: side("2026-03-04", people: 6), new: side("2026-03-05", people: 6),
                    diff: DirectoryDiff(changed: hostileMoves)),
            ], latestSnapshot: "2026-03-05T02-00-00Z.json")
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Renders `users` into a new temporary folder and returns it with the report.
    static func renderSite(
        _ users: [User] = all, options: SiteOptions = SiteOptions(), history: ChangeHistory = ChangeHistory()
    ) async throws -> (folder: URL, report: SiteReport) {
        let folder = try temporaryFolder()
        let renderer = try SiteRenderer(options: options)
        let report = try await renderer.render(
            users, generatedAt: Date(timeIntervalSince1970: 1_763_000_000), history: history,
            to: DirectorySiteOutput(root: folder))
        return (folder, report)
    }

    static func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }
}
