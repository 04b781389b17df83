import Foundation

/// Why the mass-removal guard stopped a run: what it saw, and how to let the run through if it is right.
public enum RemovalGuardError: Error, Sendable, Equatable, LocalizedError {
    /// The run found nobody. `previousCount` is nil on a first run.
    case emptyDirectory(previousCount: Int?)
    /// More people left than a limit allows. `sample` names a few of them (by name, sorted).
    case tooManyRemovals(removals: Int, previousCount: Int, newCount: Int, limit: Limit, sample: [String])

    /// The limit that was exceeded, as configured.
    public enum Limit: Sendable, Equatable {
        /// The plist's `maxRemovals`.
        case count(Int)
        /// The plist's `maxRemovalPercent`.
        case percent(Double)
    }

    public var errorDescription: String? {
        let advice =
            "Nothing was published and no snapshot was recorded. If this is right, run again with "
            + "--accept-removals; otherwise check the permissions, the 'filter' key and the local rules."
        switch self {
        case .emptyDirectory(let previousCount):
            let before = previousCount.map { " (the previous snapshot has \($0) people)" } ?? " on a first run"
            return "the directory came back empty\(before): refusing to publish an empty phone book. " + advice
        case .tooManyRemovals(let removals, let previousCount, let newCount, let limit, let sample):
            let percent = Double(removals) * 100 / Double(max(previousCount, 1))
            let limitText: String
            switch limit {
            case .count(let count): limitText = "more than maxRemovals (\(count))"
            case .percent(let allowed): limitText = "more than maxRemovalPercent (\(Self.format(allowed))%)"
            }
            let names =
                sample.isEmpty
                ? ""
                : " Among them: " + sample.joined(separator: ", ")
                    + (removals > sample.count ? ", …" : "") + "."
            return "this run would remove \(removals) of \(previousCount) people (\(Self.format(percent))%, "
                + "\(newCount) left), \(limitText).\(names) " + advice
        }
    }

    /// One decimal at most: "10", "12.5".
    private static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
