import Foundation

/// Renders the whole site for a list of people: person pages (Markdown, HTML, vCard), the searchable index,
/// browse and department pages, search shards, exports and assets.
///
/// Templates are parsed and checked once in `init`; `render` spreads the work over all cores with a task
/// group and writes deterministic bytes through the `SiteOutput`.
public struct SiteRenderer: Sendable {
    public let options: SiteOptions
    let templates: TemplateSet

    /// People per browse or department page; longer lists get numbered pages.
    static let pageSize = 500
    /// People rendered by one task.
    static let personChunk = 256

    /// Parses the built-in templates with `options.templatesDirectory` overriding any of them.
    public init(options: SiteOptions) throws(SiteError) {
        for field in options.hideFields where !SiteOptions.hideableFields.contains(field) {
            // `select`ed extra properties may be hidden too; only plain typos of model fields are rejected.
            if SiteOptions.hideableFields.contains(where: { $0.lowercased() == field.lowercased() }) {
                throw .unknownHiddenField(name: field)
            }
        }
        if let missing = Markdown.missingExtensions.first {
            throw .markdownFailed(path: "cmark-gfm extension \(missing) is not available")
        }
        self.options = options
        self.templates = try TemplateSet(overriding: options.templatesDirectory)
    }

    /// Renders every file for `people` (any order) into `output`; `generatedAt` is the "data as of" stamp and
    /// `history` the retained changes (including this run's) for the change page, the feed and person pages.
    public func render(
        _ people: [User], generatedAt: Date, history: ChangeHistory = ChangeHistory(), to output: some SiteOutput
    ) async throws(SiteError) -> SiteReport {
        let directory = SiteDirectory(users: people, hiding: options.hideFields)
        let job = SiteRenderJob(
            options: options, templates: templates, directory: directory, stamp: SiteStamp(generatedAt),
            history: SiteHistory(history, hiding: options.hideFields))
        var paths: [String] = []
        var shards = 0
        do {
            try await withThrowingTaskGroup(of: (paths: [String], shards: Int).self) { group in
                let workers = max(2, ProcessInfo.processInfo.activeProcessorCount)
                // The whole-directory files go first, so person chunks fill the other cores around them instead of
                // one long task finishing alone at the end; the search index and the exports (the two that hold a
                // copy of everyone in memory) run one after the other, never together.
                var pending: [@Sendable () throws -> (paths: [String], shards: Int)] = [
                    {
                        let search = try job.renderSearch(to: output)
                        return (search.paths + (try job.renderExports(to: output)), search.shards)
                    },
                    { (try job.renderBrowse(to: output), 0) },
                    { (try job.renderDepartments(to: output) + (try job.renderIndex(to: output)), 0) },
                    { (try job.renderChanges(to: output), 0) },
                    { (try job.writeAssets(to: output), 0) },
                ]
                var start = 0
                while start < directory.people.count {
                    let range = start..<min(directory.people.count, start + Self.personChunk)
                    pending.append { (try job.renderPeople(range, to: output), 0) }
                    start = range.upperBound
                }
                var running = 0
                for work in pending {
                    if running >= workers, let done = try await group.next() {
                        paths += done.paths
                        shards += done.shards
                        running -= 1
                    }
                    group.addTask { try work() }
                    running += 1
                }
                for try await done in group {
                    paths += done.paths
                    shards += done.shards
                }
            }
        } catch let error as SiteError {
            throw error
        } catch {
            throw .writeFailed(path: "site", reason: "\(error)")
        }
        paths.sort()
        return SiteReport(
            filesWritten: paths.count, people: directory.people.count, searchShards: shards,
            departments: directory.departments.count, paths: paths)
    }
}
