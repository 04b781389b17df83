/// File-name-safe, stable identifiers for person pages: `people/<slug>.html`.
///
/// A slug is the display name folded to ASCII (`a-z`, `0-9`, `-`, at most 48 characters) plus a short hash
/// of the immutable Graph id, e.g. `jurgen-muller-3f9a1c`. Renames change the readable part only; nothing in
/// a UPN or name (`../`, `/`, NUL, bidi overrides, emoji) can reach the file system.
public enum Slug {
    /// Characters of the readable part; long names are cut at a word boundary.
    static let maximumNameLength = 48
    /// Hex digits of the id hash in an ordinary slug.
    static let hashLength = 6

    /// The slug of one user, without regard to others (see `assign` for the collision-free set).
    public static func make(for user: User) -> String {
        make(displayName: user.displayName, id: user.id, hashLength: hashLength)
    }

    /// Unique slugs for `users`, in the same order: users whose ordinary slugs collide get longer hashes, so
    /// the result depends only on the set of users, never on their order.
    public static func assign(_ users: [User]) -> [String] {
        assign(nameParts: users.map { namePart($0.displayName) }, ids: users.map(\.id))
    }

    /// `assign` with each user's `namePart` already worked out (in parallel, by `SiteDirectory.build`).
    static func assign(nameParts: [String], ids: [String]) -> [String] {
        assign(ordinary: zip(nameParts, ids).map { ordinary(namePart: $0, id: $1) }, nameParts: nameParts, ids: ids)
    }

    /// `assign` with the ordinary slugs (`ordinary(namePart:id:)`) already worked out too, and the ids'
    /// `collisionKey`s when known (the site directory works them out on every core).
    static func assign(ordinary: [String], nameParts: [String], ids: [String], keys: [UInt32]? = nil) -> [String] {
        assign(
            ordinary: ordinary, namePart: { nameParts[$0] }, id: { ids[$0] },
            keys: keys ?? ids.map { collisionKey($0) })
    }

    /// `assign(ordinary:nameParts:ids:keys:)` with the name part and the id of the person at an index asked for only
    /// when their slug collides (rarely): a list of everyone's was a retain and a release of a string per person,
    /// made on one core while the other waited (the ids, 6 of some 1,050 samples of a 100,000-person nightly,
    /// `Benchmarks/profile-nightly.sh`). `keys` holds everyone's `collisionKey`, in the order of `ordinary`.
    static func assign(
        ordinary: [String], namePart: (Int) -> String, id: (Int) -> String, keys: [UInt32]
    ) -> [String] {
        precondition(keys.count == ordinary.count, "every slug needs its id's collision key")
        var slugs = ordinary
        lengthen(&slugs, groups: groupsOfEqualKeys(keys), namePart: namePart, id: id)
        return slugs
    }

    /// Lengthens the slugs in `slugs` that collide: two ordinary slugs can only be equal when their ids' hashes share
    /// the first six hex digits, so only people in one of `groups` (positions whose ids' `collisionKey`s are equal,
    /// `groupsOfEqualKeys`) compare slugs. A dictionary of every slug hashed each whole string, a third of the site
    /// directory's one-core pass. `namePart` and `id` are asked for only where slugs collide (rarely). Returns the
    /// positions whose slug changed, ascending.
    @discardableResult
    static func lengthen(
        _ slugs: inout [String], groups: [[Int]], namePart: (Int) -> String, id: (Int) -> String
    ) -> [Int] {
        var colliding = Set<Int>()
        for group in groups {
            for (number, first) in group.enumerated() {
                for second in group[(number + 1)...] where slugs[first] == slugs[second] {
                    colliding.insert(first)
                    colliding.insert(second)
                }
            }
        }
        guard !colliding.isEmpty else { return [] }
        let lengthened = colliding.sorted()
        let before = lengthened.map { slugs[$0] }
        for index in lengthened { slugs[index] = namePart(index) + "-" + idHash(id(index), length: 16) }
        // Identical ids (a broken input) still need distinct files: number them in order. Only a collision of
        // ordinary slugs can lead there, and a lengthened slug never equals an ordinary one (the part after its
        // last dash has 16 digits, not 6), so only the lengthened ones are compared.
        var seen: [String: Int] = [:]
        for index in lengthened {
            let count = seen[slugs[index], default: 0]
            seen[slugs[index]] = count + 1
            if count > 0 { slugs[index] += "-\(count + 1)" }
        }
        return zip(lengthened, before).filter { slugs[$0] != $1 }.map(\.0)
    }

    /// The positions of each key that `keys` holds more than once (most are there once: nothing is made for those),
    /// found through a table of the keys by their own bits (open addressing), with each key's later positions chained
    /// behind its first. Why not sorted: sorting everyone's keys, tagged with their positions, to find equal
    /// neighbours was some 5 of a 100,000-person nightly's 700 samples (`_merge` under `Slug.assign`,
    /// `Benchmarks/profile-ab.sh`).
    static func groupsOfEqualKeys(_ keys: [UInt32]) -> [[Int]] {
        keys.withUnsafeBufferPointer { keys in groupsOfEqualKeys(count: keys.count) { keys[$0] } }
    }

    /// `groupsOfEqualKeys(_:)` of the keys `key` gives for positions `0..<count`, read where they lie (the site
    /// directory reads them from everyone's preparation, with no list of them made first).
    static func groupsOfEqualKeys(count: Int, key: (Int) -> UInt32) -> [[Int]] {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        let mask = capacity - 1
        var table = [Int32](repeating: -1, count: capacity)
        // The next position with the same key as each position, -1 at the end of a chain.
        var next = [Int32](repeating: -1, count: count)
        var repeated: [Int32] = []
        for position in 0..<count {
            let positionKey = key(position)
            // The keys are the top bits of a hash already; multiplied, their low bits spread too.
            var slot = Int(truncatingIfNeeded: positionKey &* 0x9E37_79B1) & mask
            while table[slot] >= 0, key(Int(table[slot])) != positionKey { slot = (slot + 1) & mask }
            let first = table[slot]
            guard first >= 0 else {
                table[slot] = Int32(truncatingIfNeeded: position)
                continue
            }
            if next[Int(first)] < 0 { repeated.append(first) }
            next[position] = next[Int(first)]
            next[Int(first)] = Int32(truncatingIfNeeded: position)
        }
        return repeated.map { first in
            var group = [Int(first)]
            var position = next[Int(first)]
            while position >= 0 {
                group.append(Int(position))
                position = next[Int(position)]
            }
            return group
        }
    }

    /// The readable part: ASCII letters and digits of the folded, transliterated name joined by `-`.
    public static func namePart(_ displayName: String) -> String {
        namePart(folded: SearchFolding.fold(displayName).base)
    }

    /// `namePart` of a name already folded (`SearchFolding.fold(_:).base`): a build folds every display name for
    /// its sort key anyway, and folding it twice was a tenth of preparing the directory.
    static func namePart(folded: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(min(folded.utf8.count, maximumNameLength + 8))
        var pendingDash = false
        var previous: Unicode.Scalar = " "
        func add(_ byte: UInt8) {
            let isAlphanumeric = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            if isAlphanumeric {
                if pendingDash, !result.isEmpty { result.append(0x2D) }
                pendingDash = false
                result.append(byte)
            } else {
                pendingDash = true
            }
        }
        for scalar in folded.unicodeScalars {
            defer { previous = scalar }
            if scalar.isASCII {
                add(UInt8(scalar.value))
            } else if scalar == "υ", previous == "ο" || previous == "α" || previous == "ε" {
                add(UInt8(ascii: "u"))  // Greek ου, αυ, ευ
            } else if let mapped = transliteration[scalar] {
                for byte in mapped.utf8 { add(byte) }
            } else {
                add(UInt8(ascii: "-"))
            }
            if result.count > maximumNameLength { break }
        }
        if result.count > maximumNameLength {
            result = Array(result.prefix(maximumNameLength))
            if let lastDash = result.lastIndex(of: 0x2D), lastDash > maximumNameLength / 2 {
                result = Array(result[..<lastDash])
            }
            while result.last == 0x2D { result.removeLast() }
        }
        return result.isEmpty ? "person" : String(decoding: result, as: UTF8.self)
    }

    /// FNV-1a (64 bit, then mixed) of the id as lowercase hex, cut to `length` digits: stable across runs and
    /// platforms.
    static func idHash(_ id: String, length: Int) -> String {
        HexDigits.string(idHashValue(id), count: length)
    }

    /// The first six hex digits of `idHash(id, …)` as a number: ordinary slugs of two ids can be equal only when
    /// these are.
    static func collisionKey(_ id: String) -> UInt32 {
        UInt32(idHashValue(id) >> 40)
    }

    /// The number `idHash` writes in hex (its first six digits are the top 24 bits).
    static func idHashValue(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Over the bytes in place: the run works this out for everyone, and `id.utf8`'s iterator is a check per byte.
        id.withUTF8Bytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        // FNV's high bits barely change for ids that differ in their last characters: mix them (splitmix64).
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return hash
    }

    /// The ordinary slug of a person named `displayName` with Graph id `id` (before any collision lengthens it).
    static func make(displayName: String, id: String) -> String {
        make(displayName: displayName, id: id, hashLength: hashLength)
    }

    private static func make(displayName: String, id: String, hashLength: Int) -> String {
        namePart(displayName) + "-" + idHash(id, length: hashLength)
    }

    /// The ordinary slug from a `namePart` already worked out.
    static func ordinary(namePart: String, id: String) -> String {
        var slug = namePart
        slug.reserveCapacity(namePart.utf8.count + 1 + hashLength)
        slug += "-"
        slug += idHash(id, length: hashLength)
        return slug
    }

    /// Cyrillic and Greek letters (after folding) to ASCII, so such names still get readable slugs.
    static let transliteration: [Unicode.Scalar: String] = [
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z", "и": "i", "к": "k",
        "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
        "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
        "я": "ya", "і": "i", "є": "ye", "ґ": "g", "ђ": "dj", "ј": "j", "љ": "lj", "њ": "nj", "ћ": "c", "џ": "dz",
        "ѕ": "dz", "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th", "ι": "i",
        "κ": "k", "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p", "ρ": "r", "σ": "s", "τ": "t",
        "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps", "ω": "o",
    ]
}
