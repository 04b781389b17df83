import Foundation

/// A bearer token and when it stops working. Its description never shows the token.
public struct AccessToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String
    public let expiresAt: Date

    public init(value: String, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }

    /// True when fewer than `margin` seconds remain, the point at which Microsoft's libraries refresh.
    public func isExpiring(within margin: TimeInterval, now: Date = Date()) -> Bool {
        expiresAt.timeIntervalSince(now) < margin
    }

    public var description: String { "AccessToken(<redacted>, expires \(expiresAt))" }
    public var debugDescription: String { description }
}
