import ArgumentParser
import Foundation
import GraphSandbox

/// The sandbox's identity platform settings on the command line: certificates registered on the app and
/// how the simulated person behaves during device code and browser sign-in.
struct IdentityOptions: ParsableArguments {
    @Option(name: .customLong("certificate"), help: "A PEM certificate to register on the app (repeatable).")
    var certificates: [String] = []

    @Option(help: "The interval the device code endpoint announces, in seconds.")
    var deviceCodeInterval = 5

    @Option(help: "How many device code polls answer authorization_pending.")
    var pendingAnswers = 2

    @Option(help: "How many device code polls then answer slow_down.")
    var slowDownAnswers = 1

    @Option(help: "Seconds a device code lives.")
    var deviceCodeLifetime = 900

    @Flag(help: "The simulated person declines device code and browser sign-in.")
    var declineSignIn = false

    @Flag(help: "Turn off 'Allow public client flows' (device code then fails with AADSTS7000218).")
    var noPublicClientFlows = false

    func validate() throws {
        guard deviceCodeInterval >= 1 else { throw ValidationError("--device-code-interval must be 1 or more") }
        guard pendingAnswers >= 0, slowDownAnswers >= 0 else {
            throw ValidationError("--pending-answers and --slow-down-answers must be 0 or more")
        }
        guard deviceCodeLifetime >= 0 else { throw ValidationError("--device-code-lifetime must be 0 or more") }
    }

    /// Applies the options to a configuration, reading the certificate files.
    func apply(to configuration: inout SandboxConfiguration) throws {
        configuration.certificates = try certificates.map { path in
            do {
                return try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ValidationError("--certificate \(path): \(error.localizedDescription)")
            }
        }
        configuration.signInScript = DelegatedSignInScript(
            interval: deviceCodeInterval, pendingAnswers: pendingAnswers, slowDownAnswers: slowDownAnswers,
            codeLifetime: deviceCodeLifetime, declines: declineSignIn)
        configuration.publicClientFlows = !noPublicClientFlows
    }
}
