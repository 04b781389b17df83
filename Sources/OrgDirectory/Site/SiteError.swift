import Foundation

/// Why the site could not be rendered; template problems name the file, line and column.
public enum SiteError: Error, Sendable, Equatable, LocalizedError {
    /// The `templates` folder does not exist or is not a folder.
    case templatesFolderMissing(path: String)
    /// A template or asset in the `templates` folder could not be read.
    case templateUnreadable(file: String, reason: String)
    /// Mustache could not parse a template.
    case templateSyntax(file: String, line: Int, column: Int, reason: String)
    /// A template names a variable or section the page does not provide (most likely a typo).
    case unknownVariable(file: String, line: Int, column: Int, name: String)
    /// A template includes a partial that is neither built in nor in the `templates` folder.
    case missingPartial(file: String, line: Int, column: Int, name: String)
    /// `hideFields` names something that is not a hideable Graph property.
    case unknownHiddenField(name: String)
    /// Mustache returned nothing for a page: the template vanished from the library.
    case renderFailed(template: String)
    /// cmark-gfm could not parse or render a page's Markdown.
    case markdownFailed(path: String)
    /// The output refused a file.
    case writeFailed(path: String, reason: String)

    /// What writing `path` of the site failed with, as one error naming the file: a site error as it is, the output's
    /// own (`PublishError`) by the full path and the system's reason, anything else by its description. Why: wrapped
    /// as `"\(error)"`, a full disk printed Swift's dump of the value ("cannotWrite(path: …, reason: …)").
    static func writing(_ path: String, _ error: any Error) -> SiteError {
        switch error {
        case let error as SiteError:
            return error
        case PublishError.cannotWrite(let full, let reason), PublishError.cannotCreate(let full, let reason):
            return .writeFailed(path: full, reason: reason)
        case let error as LocalizedError:
            return .writeFailed(path: path, reason: error.errorDescription ?? "\(error)")
        default:
            return .writeFailed(path: path, reason: "\(error)")
        }
    }

    public var errorDescription: String? {
        switch self {
        case .templatesFolderMissing(let path):
            return "templates folder \(path) does not exist: fix the `templates` key or --templates"
        case .templateUnreadable(let file, let reason):
            return "\(file): cannot read template: \(reason)"
        case .templateSyntax(let file, let line, let column, let reason):
            return "\(file):\(line):\(column): error: template syntax: \(reason)"
        case .unknownVariable(let file, let line, let column, let name):
            return "\(file):\(line):\(column): error: unknown variable `\(name)` (not provided to this template)"
        case .missingPartial(let file, let line, let column, let name):
            return "\(file):\(line):\(column): error: partial `\(name)` not found (no \(name).mustache built in or in "
                + "the templates folder)"
        case .unknownHiddenField(let name):
            let known = SiteOptions.hideableFields.sorted().joined(separator: ", ")
            return "hideFields: `\(name)` is not a field that can be hidden (expected one of \(known))"
        case .renderFailed(let template):
            return "template \(template) rendered nothing: it is missing from the template library"
        case .markdownFailed(let path):
            return "\(path): cmark-gfm could not render the page's Markdown"
        case .writeFailed(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
