import Foundation

/// Device code sign-in (RFC 8628 as Entra ID implements it): show Microsoft's message with the URL and code,
/// then poll the token endpoint at the server's interval until the person has signed in.
///
/// Only `authorization_pending` and `slow_down` (+5 s, as MSAL) keep the loop going; declined, expired and
/// unknown codes stop it with the matching hint. Transient trouble (network, 5xx) is polled through until
/// the code expires, because the person may be halfway through signing in.
struct DeviceCodeFlow: Sendable {
    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    let deviceCodeEndpoint: URL
    let tokenEndpoint: URL
    let clientId: String
    let scopes: [String]
    let say: @Sendable (String) -> Void

    /// What `/devicecode` answers; numbers are also accepted as strings, and the older `verification_url`
    /// spelling, since not every server follows Entra's exact types.
    private struct Start: Decodable {
        var device_code: String
        var user_code: String?
        var verification_uri: String?
        var expires_in: Double?
        var interval: Double?
        var message: String?

        private enum Keys: String, CodingKey {
            case device_code, user_code, verification_uri, verification_url, expires_in, interval, message
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            device_code = try container.decode(String.self, forKey: .device_code)
            user_code = try? container.decode(String.self, forKey: .user_code)
            verification_uri =
                (try? container.decode(String.self, forKey: .verification_uri))
                ?? (try? container.decode(String.self, forKey: .verification_url))
            expires_in = Self.number(container, .expires_in)
            interval = Self.number(container, .interval)
            message = try? container.decode(String.self, forKey: .message)
        }

        private static func number(_ container: KeyedDecodingContainer<Keys>, _ key: Keys) -> Double? {
            if let value = try? container.decode(Double.self, forKey: key) { return value }
            return (try? container.decode(String.self, forKey: key)).flatMap(Double.init)
        }
    }

    /// Starts the sign-in, shows the message and polls until tokens, a final error or expiry.
    func run(using transport: HTTPTransport) async throws(AuthError) -> TokenResponse {
        let start = try await begin(using: transport)
        say(
            start.message
                ?? "To sign in, open \(start.verification_uri ?? "https://microsoft.com/devicelogin") and enter the "
                + "code \(start.user_code ?? "?")")
        var interval = max(1, start.interval ?? 5)
        let deadline = Date().addingTimeInterval(start.expires_in ?? 1800)
        let fields = [("grant_type", Self.grantType), ("client_id", clientId), ("device_code", start.device_code)]
        while true {
            try await pause(seconds: interval)
            do {
                return try await TokenEndpoint.exchange(fields, to: tokenEndpoint, using: transport)
            } catch .rejected(let error) where error.error == "authorization_pending" {
                // The person has not finished yet.
            } catch .rejected(let error) where error.error == "slow_down" {
                interval += 5
            } catch let error where error.isTransient {
                // Keep polling through a blip; the expiry below still ends the loop.
            }
            if Date() > deadline {
                throw .interactiveSignInFailed(
                    reason: "the device code expired before sign-in completed; run `orgdir login` again and finish "
                        + "within the time shown")
            }
        }
    }

    /// POSTs to `/devicecode` and decodes its answer.
    private func begin(using transport: HTTPTransport) async throws(AuthError) -> Start {
        let response = try await TokenEndpoint.send(
            [("client_id", clientId), ("scope", scopes.joined(separator: " "))], to: deviceCodeEndpoint,
            using: transport)
        guard (200..<300).contains(response.status) else {
            throw .rejected(TokenEndpointError.parse(status: response.status, body: response.body))
        }
        guard let start = try? JSONDecoder().decode(Start.self, from: response.body), !start.device_code.isEmpty else {
            throw .malformedResponse(
                endpoint: deviceCodeEndpoint.absoluteString, reason: "no device_code in the response")
        }
        return start
    }

    private func pause(seconds: Double) async throws(AuthError) {
        do {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        } catch {
            throw .interactiveSignInFailed(reason: "sign-in was cancelled")
        }
    }
}
