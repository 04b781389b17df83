import Foundation
import Synchronization

/// Person pages rendered while a first build is still fetching.
///
/// Against a slow Graph the fetch is mostly waiting, and the render used to start only when it ended. A person's
/// page depends on that person's record and, through `PersonLinks`, on who their manager and reports are; on a
/// first build nothing else (no history, one "data as of" for everyone). So each page of users is rendered as it
/// arrives on the likely links, with the render fingerprint of what was written. The final render computes
/// every fingerprint again from the whole directory and keeps the files whose fingerprint is unchanged (most
/// people; managers get their reports and are rendered again).
public struct PrerenderedPeople: Sendable {
    /// What was written for one person: the slug of the files and the fingerprint of what they show, and what
    /// the site directory needs of them (phone links and search tokens included), so that the end of the build
    /// mostly sorts and joins.
    struct Person: Sendable {
        let slug: String
        let fingerprint: RenderFingerprint
        /// Nil once the directory is past `prerenderLimit` (see `dropPreparations`).
        var early: EarlyPreparation?
    }

    /// What the prerender tasks handed back, in the order they finished. Kept as handed back: `index()` notes
    /// where each id is, and people are read where they lie.
    private var handedBack: [[Written]] = []
    /// Where each id's person is in `handedBack` (once `index()` has run: `SiteRenderer.prerender` hands the
    /// people back indexed).
    private var positions: [String: Position] = [:]
    /// Numbers the search tokens in `early` (the prerender tasks' shared table, once they are done).
    var tokenTable = SearchTokenTable()
    /// Whether the people's `early` preparations are kept.
    private(set) var keepsPreparations = true

    /// People whose pages were written.
    public var count: Int { positions.count }

    public init() {}

    /// The person prerendered under `id`, if any (once indexed).
    subscript(id: String) -> Person? {
        positions[id].map { handedBack[Int($0.chunk)][Int($0.index)].person }
    }

    /// Every indexed person with their id, in no particular order.
    var indexed: some Sequence<(id: String, person: Person)> {
        positions.lazy.map { (id, position) in
            (id, handedBack[Int(position.chunk)][Int(position.index)].person)
        }
    }
}

extension PrerenderedPeople {
    /// One person as a prerender task hands them back, search tokens numbered in the tasks' shared table
    /// (`PrerenderCaches.tokenTable`).
    struct Written: Sendable {
        let id: String
        var person: Person
    }

    /// A person's place in `handedBack`: which task's list, and where in it.
    private struct Position: Sendable {
        let chunk: Int32
        let index: Int32
    }

    /// Takes in what a prerender task wrote.
    ///
    /// Not indexed yet: a dictionary growing one task's people at a time re-hashes everyone each time it doubles,
    /// and at 100,000 people the last doubling came with the last pages, 40 ms on one core between the fetch and
    /// the render while the other waited. `index()` indexes everyone once, at the final size.
    mutating func add(_ written: [Written]) {
        var written = written
        if !keepsPreparations {
            for index in written.indices { written[index].person.early = nil }
        }
        handedBack.append(written)
    }

    /// Notes where everyone handed back by `add` is (a repeated id: the last one handed back counts).
    ///
    /// Positions, not the people themselves: moving each person into a dictionary copied every field of every
    /// person (a retain each, and a release when the task's list went), 30 ms on one core at 100,000 people while
    /// the other waited for the directory.
    mutating func index() {
        positions.reserveCapacity(positions.count + handedBack.reduce(0) { $0 + $1.count })
        for chunk in handedBack.indices {
            for index in handedBack[chunk].indices {
                positions[handedBack[chunk][index].id] = Position(chunk: Int32(chunk), index: Int32(index))
            }
        }
    }

    /// Forgets every `early` preparation (and takes no more): a directory past `SiteRenderer.prerenderLimit` is
    /// large enough that their memory (about 700 bytes a person) matters more than the time they save at the end;
    /// a million-person build went past 2 GiB with them.
    mutating func dropPreparations() {
        guard keepsPreparations else { return }
        keepsPreparations = false
        tokenTable = SearchTokenTable()
        for chunk in handedBack.indices {
            for index in handedBack[chunk].indices { handedBack[chunk][index].person.early = nil }
        }
    }
}

/// What a person's entry in the site directory needs, worked out while a first build fetches: everything that
/// depends on their record alone. The record itself is not kept (the final list has it); `recordHash` tells
/// whether it is still the one these were worked out from.
struct EarlyPreparation: Sendable {
    /// `recordHash(of:input:)` of the record (after hiding) these come from.
    let recordHash: Int
    let sortKey: [UInt8]
    let slugName: String
    let departmentKey: String?
    let phones: [(label: String, link: TelephoneLink)]
    /// Numbered in `PrerenderedPeople.tokenTable`.
    var searchTokens: [UInt32]
    /// `User.recordDigest` of the record, and the manager it had: the digest holds for the final record when its
    /// manager is still this one (a name filled in after changes it).
    var recordDigest: RenderFingerprint
    let manager: ManagerReference?

    /// What `user` (after hiding) contributes; the search tokens are numbered after, by the prerender task.
    /// `input` is a buffer to reuse: the record is written into it once for both the digest and the hash.
    init(_ user: User, folds: inout FoldCache, input: inout FingerprintInput) {
        recordHash = Self.recordHash(of: user, input: &input)
        recordDigest = input.fingerprint  // the record's bytes are in `input` from the hash
        manager = user.manager
        (sortKey, slugName, departmentKey) = PreparedPerson.keys(of: user, folds: &folds)
        phones = SitePerson.phones(of: user)
        searchTokens = []
    }

    /// A hash of everything in `user` but the manager (`FingerprintInput.add(user:)` less the manager's bytes):
    /// the fetch fills in managers' names after the people arrived, and nothing prepared early depends on the
    /// manager. Made from the bytes the record digest hashes too, rather than hashing a copy of the record field
    /// by field.
    static func recordHash(of user: User, input: inout FingerprintInput) -> Int {
        input.reset()
        let managerBytes = input.add(user: user)
        return input.hash(excluding: managerBytes)
    }
}

extension SiteRenderer {
    /// People prerendered by one build at most: the record of each (id, slug, fingerprint) is held until the
    /// final render, and above this a build is large enough that its memory, not its waiting, is the limit.
    static let prerenderLimit = 200_000

    /// Renders the pages of the people `batches` hands over (each person once, after the local rules), stamped
    /// `generatedAt`, into `output`, on all cores and while more batches arrive; returns what was written once
    /// `batches` ends. Pass the result to `render`, into the same output.
    public func prerender(
        _ batches: AsyncStream<[User]>, generatedAt: Date, to output: some SiteOutput
    ) async throws(SiteError) -> PrerenderedPeople {
        let job = SiteRenderJob(
            options: options, templates: templates, directory: SiteDirectory(users: [], hiding: options.hideFields),
            stamp: SiteStamp(generatedAt), history: SiteHistory(ChangeHistory(), hiding: options.hideFields)
        )
        .withPersonFrame()
        let site = SiteRenderJob.siteFingerprint(options: options, templates: templates)
        var result = PrerenderedPeople()
        let caches = PrerenderCaches()
        do {
            try await withThrowingTaskGroup(of: [PrerenderedPeople.Written].self) { group in
                let workers = max(2, ProcessInfo.processInfo.activeProcessorCount)
                var limiter = TaskLimiter(limit: workers)
                var accepted = 0
                for await batch in batches {
                    let people = batch.prefix(max(0, Self.prerenderLimit - accepted))
                    if people.count < batch.count {
                        result.dropPreparations()
                        caches.close()  // nobody else is prerendered: the caches go
                    }
                    guard !people.isEmpty else { continue }  // past the limit: keep draining, render nothing
                    accepted += people.count
                    let render = { @Sendable in
                        try job.prerender(Array(people), site: site, to: output, caches: caches)
                    }
                    try await limiter.add(render, to: &group) { result.add($0) }
                }
                for try await done in group { result.add(done) }
            }
        } catch {
            throw SiteError.writing("people", error)
        }
        if result.keepsPreparations { result.tokenTable = caches.tokenTable }
        result.index()
        return result
    }
}

extension SiteRenderJob {
    /// Renders `users` on their assumed links (see `PersonLinks.assumed`) with ordinary slugs, folding and
    /// tokenizing with caches taken from (and given back to) `caches`.
    func prerender(
        _ users: [User], site: RenderFingerprint, to output: some SiteOutput, caches: PrerenderCaches
    ) throws(SiteError) -> [PrerenderedPeople.Written] {
        var written: [PrerenderedPeople.Written] = []
        written.reserveCapacity(users.count)
        var paths: [String] = []
        var input = FingerprintInput()
        var (folds, tokenCache) = caches.take()
        defer { caches.give((folds, tokenCache)) }
        let numbersTokens = caches.numbersTokens
        // By index: `for user in` copies each whole record (a retain of every field) before hiding copies it again.
        for index in users.indices {
            let visible = users[index].hiding(options.hideFields)
            var early = EarlyPreparation(visible, folds: &folds, input: &input)
            if numbersTokens {
                // Numbered as they are found (each field value's numbers cached): a person's tokens as strings,
                // deduplicated through a dictionary, sorted and numbered at the end, cost twice as much.
                SearchIndexBuilder.packTokens(of: visible, cache: &tokenCache, into: &early.searchTokens) {
                    caches.number($0)
                }
            }
            let person = SitePerson(
                user: visible, index: 0, slug: Slug.ordinary(namePart: early.slugName, id: visible.id), letter: "",
                departmentFile: visible.department.flatMap { name in
                    early.departmentKey.map { SiteDirectory.departmentFile(name: name, key: $0) }
                }, phones: early.phones)
            let links = PersonLinks.assumed(for: visible)
            input.reset()
            addFingerprintInput(
                of: person, recordDigest: early.recordDigest, links: links, site: site, to: &input)
            try renderPerson(person, links: links, to: output, paths: &paths)
            paths.removeAll(keepingCapacity: true)
            written.append(
                PrerenderedPeople.Written(
                    id: visible.id, person: .init(slug: person.slug, fingerprint: input.fingerprint, early: early)))
        }
        return written
    }
}

/// Folded values and search token numbers of field values, kept from one prerender task to the next. Each task
/// (a page of about a thousand people) used to start with empty caches, so every page folded its departments,
/// titles, offices and name words again. A task takes a pair of caches and gives it back when done, so there are
/// as many pairs as tasks ever ran at once (one per core), each bounded by its own limit. The numbers are all
/// from one table (`tokenTable`), which the tasks share: a task looks into it only for a value its cache lacks.
final class PrerenderCaches: Sendable {
    /// Folded values, and the search token numbers of each field value.
    typealias Pair = (folds: FoldCache, tokens: [String: [UInt32]])

    private struct State {
        var spare: [Pair] = []
        var closed = false
    }
    private let state = Mutex(State())
    private let table = Mutex(SearchTokenTable())

    /// The numbers of `tokens` in the shared table, new tokens numbered.
    func number(_ tokens: [String]) -> [UInt32] {
        table.withLock { table in tokens.map { table.number($0) } }
    }

    /// Every token numbered so far.
    var tokenTable: SearchTokenTable {
        table.withLock { $0 }
    }

    /// Whether tasks still number search tokens: not once `close` was called (nobody's are kept then).
    var numbersTokens: Bool {
        state.withLock { !$0.closed }
    }

    /// A pair of caches no other task holds (empty ones when every pair is taken).
    func take() -> Pair {
        state.withLock { $0.spare.popLast() } ?? (FoldCache(), [:])
    }

    /// Gives a pair of caches back for the next task (or lets it go once `close` was called).
    func give(_ pair: Pair) {
        state.withLock { state in
            if !state.closed { state.spare.append(pair) }
        }
    }

    /// Lets every pair go, now and as tasks give theirs back: once a large directory stops being prerendered,
    /// the caches (up to 200,000 values each) would only hold memory until the fetch ends; at a million people
    /// they raised the peak by about 30 MiB.
    func close() {
        state.withLock { state in
            state.closed = true
            state.spare = []
        }
        table.withLock { $0 = SearchTokenTable() }
    }
}
