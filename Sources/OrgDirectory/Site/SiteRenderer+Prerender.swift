import Foundation

/// Person pages rendered while a first build is still fetching.
///
/// Against a slow Graph the fetch is mostly waiting, and the render used to start only when it ended. A person's
/// page depends on that person's record and, through `PersonLinks`, on who their manager and reports are; on a
/// first build nothing else (no history, one "data as of" for everyone). So each page of users is rendered as it
/// arrives on the likely links, with the render fingerprint of what was written. The final render computes
/// every fingerprint again from the whole directory and keeps the files whose fingerprint is unchanged (most
/// people; managers get their reports and are rendered again).
public struct PrerenderedPeople: Sendable {
    /// What was written for one person: the slug of the files and the fingerprint of what they show.
    struct Person: Sendable {
        let slug: String
        let fingerprint: RenderFingerprint
    }

    /// By Graph id.
    var byID: [String: Person] = [:]

    /// People whose pages were written.
    public var count: Int { byID.count }

    public init() {}
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
            stamp: SiteStamp(generatedAt), history: SiteHistory(ChangeHistory(), hiding: options.hideFields))
        let site = SiteRenderJob.siteFingerprintInput(options: options, templates: templates)
        var result = PrerenderedPeople()
        do {
            try await withThrowingTaskGroup(of: [(String, PrerenderedPeople.Person)].self) { group in
                let workers = max(2, ProcessInfo.processInfo.activeProcessorCount)
                var running = 0
                var accepted = 0
                for await batch in batches {
                    let people = batch.prefix(max(0, Self.prerenderLimit - accepted))
                    guard !people.isEmpty else { continue }  // past the limit: keep draining, render nothing
                    accepted += people.count
                    if running >= workers, let done = try await group.next() {
                        for (id, person) in done { result.byID[id] = person }
                        running -= 1
                    }
                    group.addTask { try job.prerender(Array(people), site: site, to: output) }
                    running += 1
                }
                for try await done in group {
                    for (id, person) in done { result.byID[id] = person }
                }
            }
        } catch let error as SiteError {
            throw error
        } catch {
            throw .writeFailed(path: "people", reason: "\(error)")
        }
        return result
    }
}

extension SiteRenderJob {
    /// Renders `users` on their assumed links (see `PersonLinks.assumed`) with ordinary slugs.
    func prerender(_ users: [User], site: [UInt8], to output: some SiteOutput) throws(SiteError) -> [(
        String, PrerenderedPeople.Person
    )] {
        var written: [(String, PrerenderedPeople.Person)] = []
        written.reserveCapacity(users.count)
        var paths: [String] = []
        var input = FingerprintInput()
        var folds = FoldCache()
        for user in users {
            let visible = user.hiding(options.hideFields)
            let person = SitePerson(
                user: visible, index: 0, slug: Slug.make(for: visible), letter: "",
                departmentFile: visible.department.map { SiteDirectory.departmentFile(name: $0, key: folds.base($0)) })
            let links = PersonLinks.assumed(for: visible)
            input.reset()
            addFingerprintInput(of: person, links: links, site: site, to: &input)
            try renderPerson(person, links: links, to: output, paths: &paths)
            paths.removeAll(keepingCapacity: true)
            written.append((user.id, PrerenderedPeople.Person(slug: person.slug, fingerprint: input.fingerprint)))
        }
        return written
    }
}
