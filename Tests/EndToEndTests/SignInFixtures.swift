import Foundation

/// Certificates, keys and signed JWTs made with the `openssl` command line, as an admin would make them.
enum SignInFixtures {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `openssl arguments…` in `folder`, failing the test on a non-zero exit.
    @discardableResult
    static func openssl(_ arguments: [String], in folder: URL, input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "openssl \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
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
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
                process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
                process.currentDirectoryURL = folder
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                let out = Pipe()
                process.standardOutput = out
                process.standardError = FileHandle.nullDevice
                process.standardInput = FileHandle.nullDevice
                do {
                    try process.run()
                    let data = out.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
