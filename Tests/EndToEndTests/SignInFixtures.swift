import Foundation
import TestSupport

/// Certificates, keys and signed JWTs made with the `openssl` command line, as an admin would make them.
enum SignInFixtures {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `openssl arguments…` in `folder`, failing the test on a non-zero exit.
    @discardableResult
    static func openssl(_ arguments: [String], in folder: URL, input: Data? = nil) throws -> Data {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, in: folder, input: input)
        guard outcome.status == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) exited \(outcome.status)")
        }
        return outcome.stdout
    }

    /// `openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem`: a PKCS#8 key and a
    /// self-signed certificate, the way Microsoft's docs tell admins to make one.
    static func makeCertificate(in folder: URL, name: String = "app") throws -> (certificate: URL, key: URL) {
        let key = folder.appendingPathComponent("\(name)-key.pem")
        let certificate = folder.appendingPathComponent("\(name)-cert.pem")
        try openssl(
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path,
                "-days", "2", "-subj", "/CN=orgdir-test",
            ], in: folder)
        return (certificate, key)
    }

    /// A JWT signed RS256 with `key` (openssl dgst -sha256 -sign), for federated-token tests.
    static func signJWT(claims: [String: Any], key: URL, in folder: URL) throws -> String {
        let header = try base64URL(JSONSerialization.data(withJSONObject: ["alg": "RS256", "typ": "JWT"]))
        let payload = try base64URL(JSONSerialization.data(withJSONObject: claims))
        let input = header + "." + payload
        let signature = try openssl(["dgst", "-sha256", "-sign", key.path], in: folder, input: Data(input.utf8))
        return input + "." + base64URL(signature)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// File mode bits (permission part) of `url`.
    static func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// The single token cache file under `cache/orgdir/`.
    static func cacheFile(in cacheHome: URL) throws -> URL {
        let folder = cacheHome.appendingPathComponent("orgdir")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        guard files.count == 1, let name = files.first else {
            throw Failure(description: "expected one cache file in \(folder.path), found \(files)")
        }
        return folder.appendingPathComponent(name)
    }

    /// The refresh token stored in a cache file.
    static func refreshToken(in file: URL) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        guard let token = object?["refreshToken"] as? String else { throw Failure(description: "no refreshToken") }
        return token
    }
}

extension SignInFixtures {
    /// util-linux `script` (Linux); macOS's BSD `script` takes other arguments.
    static var hasTerminalRunner: Bool {
        #if os(Linux)
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        #else
            false
        #endif
    }

    /// Runs the orgdir binary on a pseudo-terminal (util-linux `script`), as a person at a shell would;
    /// returns the exit status and everything the terminal showed.
    static func runOnTerminal(
        _ arguments: [String], in folder: URL, environment: [String: String]
    ) async throws -> (status: Int32, output: String) {
        let command = ([OrgDirProcess.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"], in: folder,
            environment: ChildProcess.environment(environment))
        let outcome = try await child.finished()
        return (outcome.status, outcome.standardOutput)
    }
}
