/// One person as the site shows them: the user with hidden fields removed, plus everything derived once
/// (slug, sort position, phone links, browse letter) and shared by pages, search data and exports.
///
/// A class: every list, export and search file reads everyone, and copying this value (a retain of each of
/// its twenty-odd fields) was a fifth of those tasks; a reference is one retain.
final class SitePerson: Sendable {
    /// Where the user is kept: the directory's shared list, or a list of one for a person made alone.
    let users: SiteUsers
    /// The user's position in `users` (the order the directory was made from: by id in a run).
    let userPosition: Int
    /// The user after `hideFields`, read in place (a plain getter would copy every field on each read).
    var user: User {
        _read { yield users.users[userPosition] }
    }
    /// Position in the directory's sort order; search data refers to people by it.
    let index: Int
    /// `people/<slug>.html`.
    let slug: String
    /// Business phones first, then the mobile phone, each with its label: the ones made for the person, or read
    /// from the run before's preparation cache where it kept them (`keptPhones`).
    var phones: [(label: String, link: TelephoneLink)] {
        guard keptPhones >= 0, let cache = users.preparations else { return madePhones }
        return cache.phones(at: keptPhones)
    }
    /// Whether the phone links are read from the run before's preparation cache when asked for.
    var readsKeptPhones: Bool { keptPhones >= 0 }
    /// The phone links made for the person (none when they are kept).
    private let madePhones: [(label: String, link: TelephoneLink)]
    /// Where the person's phone links lie in `users.preparations` (`PreparedPerson.keptPhones`), -1 when made.
    private let keptPhones: Int
    /// Browse page key: `a`…`z`, or `other` for names that do not start with a Latin letter.
    let letter: String
    /// Key of the department page, when the person has a department.
    let departmentFile: String?

    /// A person made alone, holding their own `user` (after hiding). `phones`: `SitePerson.phones(of: user)`, when
    /// already worked out.
    convenience init(
        user: User, index: Int, slug: String, letter: String, departmentFile: String?,
        phones: [(label: String, link: TelephoneLink)]? = nil
    ) {
        self.init(
            users: SiteUsers([user]), at: 0, index: index, slug: slug, letter: letter, departmentFile: departmentFile,
            phones: phones)
    }

    /// A person of a directory: the user at `position` of `users` (already hidden), shared with everyone else's.
    /// The phone links are `phones`, else those at `keptPhones` of `users.preparations` when it has them, else made
    /// from the user.
    init(
        users: SiteUsers, at position: Int, index: Int, slug: String, letter: String, departmentFile: String?,
        phones: [(label: String, link: TelephoneLink)]? = nil, keptPhones: Int = -1
    ) {
        self.users = users
        self.userPosition = position
        self.index = index
        self.slug = slug
        self.letter = letter
        self.departmentFile = departmentFile
        let kept = phones == nil && keptPhones >= 0 && users.preparations != nil
        self.keptPhones = kept ? keptPhones : -1
        self.madePhones =
            kept
            ? []
            : phones
                ?? Self.phones(
                    business: users.users[position].businessPhones, mobile: users.users[position].mobilePhone)
    }

    /// Business phones first, then the mobile phone, each with its label and parsed link.
    static func phones(of user: User) -> [(label: String, link: TelephoneLink)] {
        phones(business: user.businessPhones, mobile: user.mobilePhone)
    }

    /// `phones(of:)` from the two fields it reads (passing a whole user out of a list copies every field).
    static func phones(business: [String], mobile: String?) -> [(label: String, link: TelephoneLink)] {
        var phones: [(label: String, link: TelephoneLink)] = []
        for (position, number) in business.enumerated() {
            let label = business.count > 1 ? "Work phone \(position + 1)" : "Work phone"
            phones.append((label, TelephoneLink(number)))
        }
        if let mobile { phones.append(("Mobile", TelephoneLink(mobile))) }
        return phones
    }

    /// The number lists show: the first business phone, else the mobile.
    var primaryPhone: TelephoneLink? { phones.first?.link }

    /// Sort key: surname (or the display name when there is none), given name and display name folded, then the id.
    /// `foldedName` is the display name folded (`folds.base`), which the slug needs too: folded once for both.
    static func sortKey(for user: User, foldedName: String, folds: inout FoldCache) -> [UInt8] {
        var key: [UInt8] = []
        func add(_ folded: String) {
            key.append(contentsOf: folded.utf8)
            key.append(0)
        }
        add(user.surname.map { folds.base($0) } ?? foldedName)
        add(user.givenName.map { folds.base($0) } ?? "")
        add(foldedName)
        // The id is not folded: it only breaks ties, and folding would merge ids that differ in case.
        key.append(contentsOf: user.id.utf8)
        return key
    }

    /// The browse letter for a sort key, as its place in `SiteDirectory.letterKeys`: its first letter when it is
    /// `a`…`z`, else `other`. Leading punctuation ("'t Hooft") is skipped. A byte: the preparation keeps it beside
    /// its flags (`PreparedPerson.letterSlot`), and there are 27 slots.
    static func letterSlot(forSortKey key: [UInt8]) -> UInt8 {
        for byte in key {
            if byte >= 0x61, byte <= 0x7A { return byte - 0x61 }
            let skippable = byte != 0 && byte < 0x80 && !(byte >= 0x30 && byte <= 0x39)
            if !skippable { break }
        }
        return otherLetterSlot
    }

    /// The slot of `other` in `SiteDirectory.letterKeys`, its last.
    static let otherLetterSlot = UInt8(SiteDirectory.letterKeys.count - 1)
}

/// The users of a directory, once: each `SitePerson` refers to its own here instead of holding a copy. A copy
/// is about 300 bytes of fields per person (the strings are shared), 300 MB at a million people, made while
/// the fetched list still exists, at the build's peak.
final class SiteUsers: Sendable {
    let users: [User]
    /// The run before's preparations, where people whose preparation was kept find their phone links
    /// (`SitePerson.phones`). Held here, once for everyone: each person holding it too would be a retain of one
    /// object a person, from both cores at once.
    let preparations: PreparationCache?

    init(_ users: [User], preparations: PreparationCache? = nil) {
        self.users = users
        self.preparations = preparations
    }
}
