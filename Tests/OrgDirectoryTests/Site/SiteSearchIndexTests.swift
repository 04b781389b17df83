import Foundation
import TestSupport
import Testing

@testable import OrgDirectory

@Suite("Site search index")
struct SiteSearchIndexTests {
    /// Search files for `users`, keyed by path.
    static func files(_ users: [User], shardTarget: Int = 32 * 1024) -> [String: String] {
        var builder = SearchIndexBuilder()
        builder.shardTarget = shardTarget
        let directory = SiteDirectory(users: users, hiding: [])
        return Dictionary(uniqueKeysWithValues: builder.files(for: directory).map { ($0.path, $0.text) })
    }

    static func names(_ simulator: SiteSearchSimulator, _ query: String) throws -> [String] {
        try (simulator.search(query).positions ?? []).map { try simulator.record($0)[0] }
    }

    @Test(
        "queries find people by name variants, phone fragments, scripts and departments",
        arguments: [
            ("jurgen", "Jürgen Müller"), ("juergen", "Jürgen Müller"), ("Jürgen", "Jürgen Müller"),
            ("mull", "Jürgen Müller"),
            ("0134", "Jürgen Müller"), ("5550134", "Jürgen Müller"), ("+1 425", "Jürgen Müller"),
            ("555-0134", "Jürgen Müller"),
            ("senior eng", "Jürgen Müller"), ("soren", "Søren Østergaard"), ("soeren", "Søren Østergaard"),
            ("петров", "Иван Петров"), ("Иван", "Иван Петров"), ("strasser", "Gertrud Straßer"),
            ("straßer", "Gertrud Straßer"), ("王", "王小明"), ("6552", "王小明"), ("παπαδοπουλος", "Νίκος Παπαδόπουλος"),
            ("Παπαδόπουλος", "Νίκος Παπαδόπουλος"), ("finance ivan", "Иван Петров"),
            ("contoso.com juergen", "Jürgen Müller"),
        ])
    func finds(query: String, name: String) throws {
        let simulator = try SiteSearchSimulator(files: Self.files(SiteFixtures.friendly))
        #expect(try Self.names(simulator, query).contains(name))
    }

    @Test("several words narrow the result and name-prefix matches rank first")
    func ranking() throws {
        let users = [
            User(id: "1", userPrincipalName: "a@x", displayName: "Zoe Finance-Person", department: "Anna Support"),
            User(id: "2", userPrincipalName: "b@x", displayName: "Anna Zimmer", department: "Sales"),
            User(id: "3", userPrincipalName: "c@x", displayName: "Bert Annaberg", department: "Sales"),
        ]
        let simulator = try SiteSearchSimulator(files: Self.files(users))
        #expect(try Self.names(simulator, "anna") == ["Anna Zimmer", "Bert Annaberg", "Zoe Finance-Person"])
        #expect(try Self.names(simulator, "anna sales") == ["Anna Zimmer", "Bert Annaberg"])
        #expect(try Self.names(simulator, "anna nobody").isEmpty)
    }

    @Test("with small shards every token prefix still reaches every person who has it")
    func adaptiveShards() throws {
        let users =
            SiteFixtures.all
            + (0..<300).map {
                User(
                    id: "g\($0)", userPrincipalName: "p\($0)@contoso.com", displayName: "Person \($0) Aa\($0 % 7)bb",
                    surname: "Aa\($0 % 7)bb", department: "Dept \($0 % 5)")
            }
        let files = Self.files(users, shardTarget: 600)
        let simulator = try SiteSearchSimulator(files: files)
        let manifest = try #require(
            try SiteSearchSimulator.payload(files["search/manifest.js"] ?? "") as? [String: Any])
        let leaves = try #require(manifest["leaves"] as? [[Any]])
        #expect(leaves.count > 20)
        #expect(leaves.contains { ($0[1] as? Int) == 1 }, "an exact-token leaf exists")
        let directory = SiteDirectory(users: users, hiding: [])
        for person in directory.people.prefix(40) {
            for (token, _) in SearchIndexBuilder.tokens(of: person.user) {
                for length in 1...token.count {
                    let prefix = String(token.prefix(length))
                    guard let positions = try simulator.search(prefix).positions else { continue }
                    #expect(positions.contains(person.index), "\(prefix) misses \(person.user.displayName)")
                }
            }
        }
    }

    @Test(
        "values are split into the same parts as by Character, ASCII ones as bytes",
        arguments: [
            "a@b.com", "@x", "a@", "@", "a@@b", "@@b", "", "x", "a@b@c", "ü@b", "  Ada  Lovelace", " ", "O'Neil Jr",
            "@@", "a@@", "@a@", "ü@@b", "e\u{301}@x", "a@\u{301}b", "Ada Lovelace ", "  ",
        ])
    func splitLikeCharacters(text: String) {
        for separator: Unicode.Scalar in ["@", " "] {
            let reference = text.split(separator: Character(separator), maxSplits: 1).map(String.init)
            let parts = SearchIndexBuilder.split(text, at: separator)
            #expect([parts.first, parts.rest].compactMap { $0 } == reference, "\(text) at \(separator)")
            #expect(parts.rest == nil || parts.first != nil)
            let first = text.split(whereSeparator: { $0 == Character(separator) }).first.map(String.init)
            #expect(SearchIndexBuilder.firstPart(of: text, splitAt: separator) == first)
        }
    }

    @Test("numbering tokens gives the postings indexing by token text gives, best match class kept per person")
    func numberedPostingsEqualTextPostings() {
        let users =
            SiteFixtures.all + SiteBenchmarkDirectory.users(count: 2_000)
            + [
                // A token found in several fields of one person: the best class wins.
                User(
                    id: "dup", userPrincipalName: "sales@x.com", displayName: "Sales Sales", surname: "Sales",
                    jobTitle: "Sales", department: "Sales")
            ]
        let directory = SiteDirectory(users: users, hiding: [])
        let builder = SearchIndexBuilder()
        let numbered = builder.tokenPostings(directory)
        #expect(numbered.count > 1_000)
        #expect(numbered == builder.postingsByToken(directory))
    }

    @Test("a directory indexed by token text, as one too large to number, gets the very same search files")
    func textIndexedShardsEqualNumbered() {
        let hostile = SiteFixtures.hostile.enumerated().map { index, name in
            User(id: "hostile-\(index)", userPrincipalName: "h\(index)@x.com", displayName: name, department: name)
        }
        let users = SiteFixtures.all + hostile + SiteBenchmarkDirectory.users(count: 3_000)
        let directory = SiteDirectory(users: users, hiding: [])
        var numbered = SearchIndexBuilder()
        numbered.shardTarget = 4 * 1024
        var byText = numbered
        byText.numberingLimit = 0
        #expect(byText.numberedPostings(directory).tokenized == users.count, "indexed by text")
        let made = numbered.files(for: directory)
        #expect(made.filter { $0.path.hasPrefix("search/t/") }.count > 10, "split into many shards")
        #expect(byText.files(for: directory).map { $0.bytes } == made.map { $0.bytes })
    }

    @Test("at 100,000 people a first search downloads no more than 200 KB compressed")
    func downloadBudget() throws {
        let users = SiteBenchmarkDirectory.users(count: 100_000)
        let files = Self.files(users)
        let simulator = try SiteSearchSimulator(files: files)
        for query in ["jurgen", "juergen", "müller", "0134", "Петров", "engineering", "a"] {
            let (positions, fetched) = try simulator.search(query)
            let bytes = try fetched.reduce(0) { $0 + (try Gzip.size(of: files[$1] ?? "")) }
            #expect(bytes <= 200 * 1024, "\(query): \(bytes) bytes over \(fetched.count) files")
            print("first search for \"\(query)\" at 100,000 people: \(bytes) bytes gzip over \(fetched.count) files")
            if query != "a" { #expect((positions?.count ?? 0) > 0, "\(query) finds someone") }
        }
    }

    @Test("postings and numbers are written as decimal bytes, as String(_:) writes them")
    func decimalBytes() {
        for value in [0, 7, 9, 10, 99, 100, 12_345, -1, -907, Int.max, Int.min] {
            var bytes: [UInt8] = [0x5B]
            DecimalBytes.append(value, to: &bytes)
            #expect(bytes == [0x5B] + Array(String(value).utf8))
        }
        for lists in [[[3, 5, 105], [], [0, 1_000_000]], [[], [], [7]], [[0], [1, 2, 3, 40_000], [99, 100]]] {
            let expected =
                "["
                + lists.map { list in
                    "[" + zip(list, [0] + list).map { String($0 - $1) }.joined(separator: ",") + "]"
                }.joined(separator: ",") + "]"
            let postings = TokenPostings(byText: ["token": lists])
            var encoded: [UInt8] = []
            postings.appendEncoded(0, to: &encoded)
            #expect(String(decoding: encoded, as: UTF8.self) == expected)
            #expect(postings.encodedCount(0) == encoded.count, "the size a shard's split is worked out with")
        }
        for value in [0, 9, 10, 99, 100, 123_456, -1, -10, Int.max, Int.min] {
            var bytes: [UInt8] = []
            DecimalBytes.append(value, to: &bytes)
            #expect(DecimalBytes.count(value) == bytes.count, "\(value)")
        }
    }
}

/// A large synthetic directory with international names, for budget and speed checks.
enum SiteBenchmarkDirectory {
    static let given = [
        "Jürgen", "Anna", "Søren", "Иван", "Maria", "Ζωή", "小明", "Fatima", "Łukasz", "José", "Zoë", "Björn", "Ólafur",
        "Mohammed", "Wei", "Olga", "Ahmed", "Elena", "Pierre", "Ingrid", "Sven", "Aiko", "Priya", "Kwame", "Lucía",
        "Mateo", "Noor", "Hannah", "Yusuf", "Chloé", "Dmitri", "Eleni", "Giulia", "Hiroshi", "Ines", "Jakub", "Kaja",
        "Liam", "Mei", "Nikolai", "Oskar", "Paula", "Quentin", "Rania", "Sakura", "Tomás", "Ugne", "Viktor", "Wiebke",
    ]
    static let family = [
        "Müller", "Schmidt", "Østergaard", "Петров", "García", "Παπαδοπούλου", "王", "Al-Hassan", "Wałęsa", "Straßer",
        "O'Brien", "Nguyễn", "Kowalski", "Jensen", "Dubois", "Rossi", "Tanaka", "Smith", "Иванова", "Öztürk", "Novák",
        "Horváth", "Johansson", "Virtanen", "Fernández", "Silva", "Kim", "Park", "Chen", "Singh", "Patel", "Mensah",
        "Okafor", "Haddad", "Cohen", "Levi", "Kaya", "Yılmaz", "Popescu", "Nagy", "Dvořák", "Lindqvist", "Brennan",
    ]
    static let departments = [
        "Engineering", "Sales", "Finance", "Human Resources", "Platform Engineering", "Legal", "Marketing", "Support",
        "Research", "Operations", "Procurement", "Facilities",
    ]

    /// `count` users, the same on every call.
    static func users(count: Int) -> [User] {
        var numbers = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        return (0..<count).map { number in
            let given = given[next(given.count)]
            let family = family[next(family.count)]
            let local = "\(SearchFolding.fold(given).expanded).\(SearchFolding.fold(family).expanded)\(number)"
            return User(
                id: "00000000-0000-4000-8000-\(String(number, radix: 16).leftPadded(to: 12))",
                userPrincipalName: local + "@contoso.com", displayName: "\(given) \(family)", givenName: given,
                surname: family, mail: local + "@contoso.com",
                businessPhones: ["+1 425 \(100 + next(900)) \(String(next(10_000)).leftPadded(to: 4))"],
                jobTitle: ["Engineer", "Manager", "Analyst", "Designer", "Specialist"][next(5)] + " \(next(4) + 1)",
                department: departments[next(departments.count)], officeLocation: "Building \(next(60))")
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}

/// Compressed sizes through the system's gzip (what a web server would send); raw size when gzip is missing.
enum Gzip {
    static func size(of text: String) throws -> Int {
        guard FileManager.default.isExecutableFile(atPath: "/bin/gzip") else { return text.utf8.count }
        return try ChildProcess.run(URL(fileURLWithPath: "/bin/gzip"), ["-c", "-6"], input: Data(text.utf8))
            .stdout.count
    }
}

extension TokenPostings {
    /// The postings of every token someone has, by text.
    var byToken: [String: [[Int]]] {
        var postings: [String: [[Int]]] = [:]
        for number in tokens.indices where isPosted(number) {
            postings[tokens[number]] = (0..<Self.classes).map { matchClass in
                var list: [Int] = []
                forEach(number, matchClass) { list.append($0) }
                return list
            }
        }
        return postings
    }
}

extension SearchIndexBuilder {
    /// Token → positions per match class, positions ascending.
    func tokenPostings(_ directory: SiteDirectory) -> [String: [[Int]]] {
        numberedPostings(directory).postings.byToken
    }
}
