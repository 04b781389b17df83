import ArgumentParser
import Foundation
import Logging
import OrgDirectory

/// Options every command that talks to Graph shares.
struct RunOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The settings file (an XML property list).")
    var config: String = "settings.plist"

    @Flag(name: .shortAndLong, help: "Log every request (method, URL, status, duration) on stderr.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors on stderr.")
    var quiet = false

    /// The settings file as a URL relative to the working directory.
    var configURL: URL {
        URL(fileURLWithPath: config, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
    }

    /// A logger on stderr at the level the flags ask for.
    func makeLogger() -> Logger {
        let level: Logger.Level = verbose ? .debug : (quiet ? .error : .warning)
        var logger = Logger(label: "orgdir") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = level
        return logger
    }
}

/// Prints a one-line error on stderr and leaves with the given code.
func fail(_ message: String, code: Int32) -> ArgumentParser.ExitCode {
    StandardStream.error.write("orgdir: error: \(message)\n")
    return ArgumentParser.ExitCode(code)
}
