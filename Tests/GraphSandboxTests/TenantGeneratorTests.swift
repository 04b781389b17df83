import Foundation
import Testing

@testable import GraphSandbox

@Suite("Tenant generator")
struct TenantGeneratorTests {
    static let tenant = TenantGenerator(seed: 1).users(count: 500)

    @Test("the same seed and count give an identical tenant")
    func deterministic() {
        let again = TenantGenerator(seed: 1).users(count: 500)
        #expect(again == Self.tenant)
    }

    @Test("another seed gives other people")
    func seedMatters() {
        let other = TenantGenerator(seed: 2).users(count: 500)
        #expect(Set(other.map(\.id)).isDisjoint(with: Set(Self.tenant.map(\.id))))
    }

    @Test("exactly the requested count, for small and large tenants", arguments: [0, 1, 7, 10, 99, 500, 1500])
    func exactCount(count: Int) {
        #expect(TenantGenerator(seed: 9).users(count: count).count == count)
    }

    @Test("ids are GUIDs, ids and UPNs unique, list ordered by id")
    func uniqueness() {
        let ids = Self.tenant.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        #expect(ids.allSatisfy { TenantIdentity.isGUID($0) })
        let upns = Self.tenant.map { $0.userPrincipalName.lowercased() }
        #expect(Set(upns).count == upns.count)
    }

    @Test("member UPNs are ASCII first.last at the tenant domain")
    func asciiPrincipalNames() {
        for user in Self.tenant where user.kind == .member {
            #expect(user.userPrincipalName.allSatisfy { $0.isASCII }, "\(user.userPrincipalName)")
            #expect(user.userPrincipalName.hasSuffix("@contoso.com"))
            #expect(user.userPrincipalName.contains("."))
        }
    }

    @Test(
        "names come in many scripts",
        arguments: [
            ("Cyrillic", 0x0400...0x04FF), ("Greek", 0x0370...0x03FF), ("Arabic", 0x0600...0x06FF),
            ("CJK", 0x4E00...0x9FFF), ("Hangul", 0xAC00...0xD7AF), ("Latin-1 accents", 0x00C0...0x00FF),
            ("Latin Extended-A", 0x0100...0x017F),
        ])
    func scripts(name: String, range: ClosedRange<Int>) {
        let found = Self.tenant.contains { user in
            user.displayName.unicodeScalars.contains { range.contains(Int($0.value)) }
        }
        #expect(found, "no display name uses \(name)")
    }

    @Test(
        "folding turns accented names into plain aliases",
        arguments: [
            ("Jürgen", "jurgen"), ("Müller", "muller"), ("Søren", "soren"), ("Ærø", "aero"), ("Łukasz", "lukasz"),
            ("Weiß", "weiss"), ("Nguyễn", "nguyen"), ("Đặng", "dang"), ("O'Brien", "obrien"),
            ("Anne-Marie", "annemarie"), ("Þór", "thor"),
            ("İlknur", "ilknur"),
        ])
    func folding(name: String, alias: String) {
        #expect(ASCIIFolding.alias(name) == alias)
    }

    @Test("members have consistent given name, surname and display name")
    func consistentNames() {
        for user in Self.tenant where user.kind == .member {
            #expect(user.givenName.map { user.displayName.contains($0) } == true, "\(user.displayName)")
            #expect(user.surname.map { user.displayName.contains($0) } == true, "\(user.displayName)")
        }
    }

    @Test("about 3% guests with #EXT# UPNs in the onmicrosoft domain")
    func guests() {
        let guests = Self.tenant.filter { $0.kind == .guest }
        #expect((10...20).contains(guests.count))
        for guest in guests {
            #expect(guest.userType == "Guest")
            #expect(guest.userPrincipalName.contains("#EXT#@contoso.onmicrosoft.com"))
            #expect(guest.mail?.contains("@") == true)
            #expect(guest.managerId == nil)
        }
        #expect(Self.tenant.filter { $0.userType == "Guest" }.count == guests.count)
    }

    @Test("a common name's aliases are numbered 2, 3, 4… without gaps, and every sign-in name is unique")
    func aliasNumbering() {
        let users = TenantGenerator(seed: 1).users(count: 30_000)
        let names = users.map { $0.userPrincipalName.lowercased() }
        #expect(Set(names).count == names.count)
        var numbersByBase: [String: [Int]] = [:]
        for user in users where user.userType == "Member" {
            guard let local = user.userPrincipalName.split(separator: "@").first, local.contains(".") else { continue }
            let digits = local.reversed().prefix { $0.isNumber }
            let base = String(local.dropLast(digits.count))
            numbersByBase[base, default: []].append(digits.isEmpty ? 1 : Int(String(digits.reversed())) ?? -1)
        }
        let shared = numbersByBase.filter { $0.value.count > 1 }
        #expect(shared.count > 100, "the catalog repeats names at this size")
        for (base, numbers) in shared {
            #expect(numbers.sorted() == Array(1...numbers.count), "\(base)")
        }
    }

    @Test("rooms and shared mailboxes are disabled accounts without given name or surname")
    func resourceAccounts() {
        let rooms = Self.tenant.filter { $0.kind == .room }
        let shared = Self.tenant.filter { $0.kind == .sharedMailbox }
        #expect(!rooms.isEmpty)
        #expect(!shared.isEmpty)
        for account in rooms + shared {
            #expect(account.givenName == nil)
            #expect(account.surname == nil)
            #expect(!account.accountEnabled)
        }
        #expect(rooms.contains { $0.displayName.hasPrefix("Room ") })
        #expect(shared.contains { $0.displayName == "Shared: Payroll" })
    }

    @Test("some members are disabled and some have no mail or phones, but most have both")
    func gaps() {
        let members = Self.tenant.filter { $0.kind == .member }
        let disabled = members.filter { !$0.accountEnabled }.count
        let unreachable = members.filter { $0.mail == nil && $0.businessPhones.isEmpty && $0.mobilePhone == nil }.count
        #expect((3...35).contains(disabled))
        #expect((8...50).contains(unreachable))
        #expect(members.filter { $0.mail != nil }.count > members.count * 8 / 10)
        #expect(members.allSatisfy { $0.businessPhones.count <= 1 })
    }

    @Test("phone numbers come in varied national formats")
    func phoneFormats() {
        let phones = Self.tenant.flatMap(\.businessPhones)
        #expect(phones.contains { $0.hasPrefix("+1 ") })
        #expect(phones.contains { $0.hasPrefix("(") })
        #expect(phones.contains { $0.hasPrefix("+49 ") })
        #expect(phones.contains { !$0.hasPrefix("+") && !$0.hasPrefix("(") })
    }

    @Test("managers exist, are members, and the hierarchy has no cycles")
    func hierarchy() {
        let byId = Dictionary(uniqueKeysWithValues: Self.tenant.map { ($0.id, $0) })
        let managed = Self.tenant.filter { $0.managerId != nil }
        #expect(managed.count > 400)
        for user in managed {
            let manager = byId[user.managerId ?? ""]
            #expect(manager?.kind == .member)
            var seen: Set<String> = [user.id]
            var current = manager
            while let step = current {
                #expect(!seen.contains(step.id), "cycle through \(step.id)")
                if seen.contains(step.id) { break }
                seen.insert(step.id)
                current = step.managerId.flatMap { byId[$0] }
            }
        }
    }
}

@Suite("Timestamps")
struct TimestampsTests {
    @Test(
        "formats match Graph, the identity platform and RFC 1123",
        arguments: [
            (0.0, "1970-01-01T00:00:00", "1970-01-01 00:00:00Z", "Thu, 01 Jan 1970 00:00:00 GMT"),
            (1_621_365_156.9, "2021-05-18T19:12:36", "2021-05-18 19:12:36Z", "Tue, 18 May 2021 19:12:36 GMT"),
            (951_782_400.0, "2000-02-29T00:00:00", "2000-02-29 00:00:00Z", "Tue, 29 Feb 2000 00:00:00 GMT"),
        ])
    func formats(seconds: Double, graph: String, identity: String, http: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Timestamps.graphDate(date) == graph)
        #expect(Timestamps.identityTimestamp(date) == identity)
        #expect(Timestamps.httpDate(date) == http)
    }
}
