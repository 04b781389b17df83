import Foundation

/// Builds a realistic, deterministic tenant: the same seed and count always give the same users, ids
/// included. The mix follows real directories: mostly members from many cultures and scripts, about 3%
/// guests (`#EXT#` UPNs), about 3% disabled members, about 5% without mail or phones, a few rooms and
/// shared mailboxes (disabled accounts without given name or surname) and a manager hierarchy.
public struct TenantGenerator: Sendable {
    public let seed: UInt64
    /// The verified domain of member UPNs and mail.
    public let domain: String

    public init(seed: UInt64, domain: String = "contoso.com") {
        self.seed = seed
        self.domain = domain
    }

    /// The `onmicrosoft.com` domain guests' UPNs live in.
    var initialDomain: String {
        let label = domain.split(separator: ".").first.map(String.init) ?? "contoso"
        return "\(label).onmicrosoft.com"
    }

    /// Exactly `count` users, ordered by id (the sandbox's default listing order).
    public func users(count: Int) -> [SandboxUser] {
        guard count > 0 else { return [] }
        var state = GenerationState(seed: seed, generator: self)
        let special = count >= 10
        let roomCount = special ? max(1, count / 100) : 0
        let sharedCount = special ? max(1, count / 150) : 0
        let guestCount = special ? max(1, Int((Double(count) * 0.03).rounded())) : 0
        let memberCount = count - roomCount - sharedCount - guestCount

        var members: [SandboxUser] = []
        members.reserveCapacity(memberCount)
        for index in 0..<memberCount {
            members.append(state.member(index: index))
        }
        state.assignManagers(to: &members)
        var all = members
        for _ in 0..<guestCount { all.append(state.guest()) }
        for index in 0..<roomCount { all.append(state.room(index: index)) }
        for index in 0..<sharedCount { all.append(state.sharedMailbox(index: index)) }
        return all.sorted { $0.id < $1.id }
    }
}

/// The mutable part of one generation run: the random stream and the aliases already taken.
private struct GenerationState {
    var rng: SeededGenerator
    let generator: TenantGenerator
    var usedAliases: Set<String> = []
    /// The next number to try for each `base` + `suffix`: aliases are only ever added, so every number below it
    /// is taken, and a common name no longer re-probes all its earlier numbers (quadratic at a million people).
    var nextAliasNumber: [String: Int] = [:]
    let totalWeight: Int

    init(seed: UInt64, generator: TenantGenerator) {
        self.rng = SeededGenerator(seed: seed ^ 0x6F72_6764_6972_2121)
        self.generator = generator
        self.totalWeight = Culture.catalog.reduce(0) { $0 + $1.weight }
    }

    /// The first people cycle through every culture so even small tenants show every script.
    mutating func culture(index: Int) -> Culture {
        if index > 0, index <= Culture.catalog.count {
            return Culture.catalog[index - 1]
        }
        var ticket = rng.below(totalWeight)
        for culture in Culture.catalog {
            if ticket < culture.weight { return culture }
            ticket -= culture.weight
        }
        return Culture.catalog[0]
    }

    /// A unique mail alias: `first.last`, then `first.last2`, `first.last3`... (the number goes before
    /// `suffix`, which keeps guests' `_home.domain` at the end).
    mutating func uniqueAlias(_ base: String, suffix: String = "") -> String {
        let key = base + "\u{1F}" + suffix
        var candidate = base + suffix
        var counter = nextAliasNumber[key] ?? 2
        if counter > 2 || usedAliases.contains(candidate) {
            repeat {
                candidate = "\(base)\(counter)\(suffix)"
                counter += 1
            } while usedAliases.contains(candidate)
        }
        nextAliasNumber[key] = counter
        usedAliases.insert(candidate)
        return candidate
    }

    /// Replaces each `#` with a random digit.
    mutating func phone(_ pattern: String) -> String {
        String(pattern.map { $0 == "#" ? Character(String(rng.below(10))) : $0 })
    }

    /// A creation time between 2015 and 2024, as Graph formats it.
    mutating func createdDateTime() -> String {
        let start = 1_420_070_400  // 2015-01-01T00:00:00Z
        let seconds = start + rng.below(9 * 365 * 86_400)
        return Timestamps.iso8601(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// A member: name from a culture, ASCII alias, office, job, phones, with the realistic gaps.
    mutating func member(index: Int) -> SandboxUser {
        let culture = culture(index: index)
        let given = rng.pick(culture.givenNames)
        let surname = rng.pick(culture.surnames)
        let displayName: String
        switch culture.order {
        case .givenFirst:
            let latinScript = given.latin == nil && surname.latin == nil
            displayName =
                latinScript && rng.chance(0.04)
                ? "\(surname.native), \(given.native)" : "\(given.native) \(surname.native)"
        case .surnameFirst(let separator):
            displayName = "\(surname.native)\(separator)\(given.native)"
        }
        let alias = uniqueAlias("\(given.alias).\(surname.alias)")
        let upn = "\(alias)@\(generator.domain)"
        let unreachable = rng.chance(0.05)
        let office = rng.pick(culture.offices)
        let (department, title) = index == 0 ? ("Executive", "Chief Executive Officer") : Self.job(&rng)
        let mailAddress = "\(Self.capitalizedAlias(alias))@\(generator.domain)"
        return SandboxUser(
            id: rng.guid(),
            userPrincipalName: upn,
            displayName: displayName,
            givenName: given.native,
            surname: surname.native,
            mail: unreachable ? nil : mailAddress,
            businessPhones: !unreachable && rng.chance(0.75) ? [phone(rng.pick(culture.phoneFormats))] : [],
            mobilePhone: !unreachable && rng.chance(0.55) ? phone(rng.pick(culture.mobileFormats)) : nil,
            jobTitle: index > 0 && rng.chance(0.06) ? nil : title,
            officeLocation: rng.chance(0.08) ? nil : office.location,
            preferredLanguage: rng.chance(0.15) ? nil : culture.language,
            department: index > 0 && rng.chance(0.05) ? nil : department,
            companyName: rng.chance(0.05) ? nil : office.company,
            accountEnabled: index == 0 || !rng.chance(0.03),
            userType: "Member",
            employeeId: rng.chance(0.85) ? "E\(10_000 + index * 7 + rng.below(7))" : nil,
            employeeType: rng.chance(0.88) ? "Employee" : (rng.chance(0.7) ? "Contractor" : nil),
            city: office.city,
            state: office.state,
            country: office.country,
            postalCode: office.postalCode,
            streetAddress: office.street,
            usageLocation: office.usageLocation,
            mailNickname: alias,
            createdDateTime: createdDateTime(),
            proxyAddresses: unreachable ? [] : ["SMTP:\(mailAddress)", "smtp:\(alias)@\(generator.initialDomain)"],
            kind: .member
        )
    }

    /// A B2B guest: `alias_home.domain#EXT#@tenant.onmicrosoft.com`, mail at the home domain.
    mutating func guest() -> SandboxUser {
        let culture = culture(index: 0)
        let given = rng.pick(culture.givenNames)
        let surname = rng.pick(culture.surnames)
        let homeDomain = rng.pick(GenerationCatalog.guestDomains)
        let upnLocal = uniqueAlias("\(given.alias).\(surname.alias)", suffix: "_\(homeDomain)")
        let address = String(upnLocal.dropLast(homeDomain.count + 1)) + "@\(homeDomain)"
        return SandboxUser(
            id: rng.guid(),
            userPrincipalName: "\(upnLocal)#EXT#@\(generator.initialDomain)",
            displayName: rng.chance(0.2) ? address : "\(given.native) \(surname.native)",
            givenName: rng.chance(0.5) ? given.native : nil,
            surname: rng.chance(0.5) ? surname.native : nil,
            mail: address,
            businessPhones: rng.chance(0.1) ? [phone(rng.pick(culture.phoneFormats))] : [],
            companyName: rng.chance(0.3) ? Self.companyName(of: homeDomain) : nil,
            accountEnabled: true,
            userType: "Guest",
            mailNickname: "\(upnLocal)#EXT#",
            createdDateTime: createdDateTime(),
            otherMails: [address],
            proxyAddresses: ["SMTP:\(address)"],
            kind: .guest
        )
    }

    /// A meeting room: a disabled resource account with a display name such as "Room 4.01 Oslo".
    mutating func room(index: Int) -> SandboxUser {
        let (prefix, city, cityAlias, location) = GenerationCatalog.roomSites[index % GenerationCatalog.roomSites.count]
        let floor = 1 + rng.below(9)
        let number = 1 + rng.below(30)
        let code = "\(floor).\(number < 10 ? "0" : "")\(number)"
        let alias = uniqueAlias("room-\(floor)\(number < 10 ? "0" : "")\(number)-\(cityAlias)")
        let address = "\(alias)@\(generator.domain)"
        return SandboxUser(
            id: rng.guid(),
            userPrincipalName: address,
            displayName: "\(prefix) \(code) \(city)",
            mail: address,
            businessPhones: rng.chance(0.5) ? [phone("+1 425 555 01##")] : [],
            officeLocation: "\(location) \(code)",
            accountEnabled: false,
            userType: "Member",
            city: city,
            createdDateTime: createdDateTime(),
            proxyAddresses: ["SMTP:\(address)"],
            kind: .room
        )
    }

    /// A shared mailbox: a disabled account with a functional name such as "Shared: Payroll".
    mutating func sharedMailbox(index: Int) -> SandboxUser {
        let (name, base) = GenerationCatalog.sharedMailboxes[index % GenerationCatalog.sharedMailboxes.count]
        let alias = uniqueAlias(base)
        let address = "\(alias)@\(generator.domain)"
        let round = index / GenerationCatalog.sharedMailboxes.count
        return SandboxUser(
            id: rng.guid(),
            userPrincipalName: address,
            displayName: round == 0 ? name : "\(name) \(round + 1)",
            mail: address,
            accountEnabled: false,
            userType: "Member",
            createdDateTime: createdDateTime(),
            proxyAddresses: ["SMTP:\(address)"],
            kind: .sharedMailbox
        )
    }

    /// Managers come from earlier members, so the links form a tree under the first member (the CEO);
    /// about 2% of members report to nobody, as in real directories with gaps.
    mutating func assignManagers(to members: inout [SandboxUser]) {
        guard members.count > 1 else { return }
        for index in 1..<members.count {
            if rng.chance(0.02) { continue }
            let managerIndex = rng.below(max(1, (index + 1) / 4))
            members[index].managerId = members[managerIndex].id
        }
    }

    private static func job(_ rng: inout SeededGenerator) -> (String, String) {
        let (department, titles) = rng.pick(GenerationCatalog.departments)
        return (department, rng.pick(titles))
    }

    private static func capitalizedAlias(_ alias: String) -> String {
        alias.split(separator: ".", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: ".")
    }

    private static func companyName(of domain: String) -> String {
        let label = domain.split(separator: ".").first.map(String.init) ?? domain
        return label.prefix(1).uppercased() + label.dropFirst()
    }
}
