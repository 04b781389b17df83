import Foundation
import Testing

@testable import OrgDirectory

@Suite("Graph protocol details")
struct GraphProtocolTests {
    @Test(
        "Retry-After is read as fractional seconds or an HTTP date",
        arguments: [("2.128", 2.128), ("0", 0.0), ("120", 120.0)])
    func retryAfterSeconds(header: String, expected: Double) {
        #expect(RetryAfter.seconds(from: header) == expected)
    }

    @Test(
        "an unsupported query's hint names what Graph could not answer",
        arguments: [
            ("https://g/v1.0/users/delta?$select=id", "delta query"),
            ("https://g/v1.0/users?$filter=endswith(mail,'x')&$top=999", "change the filter key"),
            ("https://g/v1.0/users?%24filter=x", "change the filter key"),
            ("https://g/v1.0/users?$select=id&$top=999", "check the select and pageSize keys"),
        ])
    func unsupportedQueryHint(url: String, hint: String) {
        let body = Data(#"{"error":{"code":"Request_UnsupportedQuery","message":"Unsupported Query."}}"#.utf8)
        let summary = GraphServiceError.parse(status: 400, headers: [:], body: body, url: url).summary
        #expect(summary.contains(hint), "\(summary)")
        #expect(summary.components(separatedBy: "hint:").count == 2, "one hint: \(summary)")
    }

    @Test("Retry-After as an HTTP date is the time until that date")
    func retryAfterDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let header = formatter.string(from: now.addingTimeInterval(7))
        #expect(RetryAfter.seconds(from: header, now: now) == 7)
        #expect(RetryAfter.seconds(from: "soon") == nil)
        #expect(RetryAfter.seconds(from: "-3") == nil)
    }

    @Test("the first page asks for the model's properties, the filter and 999 per page, with + and # encoded")
    func firstPageURL() {
        let query = UserQuery(
            select: ["id", "displayName"], filter: "startswith(mobilePhone,'+1') or userPrincipalName eq 'a#EXT#@b'",
            pageSize: 999, expandManager: true, mode: .standard)
        let url = query.firstPageURL(graphBase: URL(string: "https://graph.microsoft.com/v1.0/")!).absoluteString
        #expect(url.hasPrefix("https://graph.microsoft.com/v1.0/users?$select=id,displayName&$filter="))
        #expect(url.contains("%2B1"))
        #expect(url.contains("%23EXT%23"))
        #expect(
            url.contains("$expand=manager($select%3Did,displayName)")
                || url.contains("$expand=manager($select=id,displayName)"))
        #expect(url.hasSuffix("$top=999"))
        #expect(!url.contains("$count"))
    }

    @Test("advanced queries send $count=true and the ConsistencyLevel header")
    func advancedQuery() {
        let query = UserQuery(
            select: ["id"], filter: "endswith(mail,'@contoso.com')", pageSize: 999, expandManager: false,
            mode: .advanced)
        #expect(query.firstPageURL(graphBase: URL(string: "https://g/v1.0/")!).absoluteString.contains("$count=true"))
        #expect(query.headers.contains { $0.0 == "ConsistencyLevel" && $0.1 == "eventual" })
    }

    @Test("the trust boundary compares scheme, host and port")
    func origin() {
        let origin = GraphOrigin(URL(string: "https://graph.microsoft.com/")!)
        #expect(origin.contains(URL(string: "https://graph.microsoft.com/v1.0/users?$skiptoken=x")!))
        #expect(origin.contains(URL(string: "https://GRAPH.microsoft.com:443/v1.0/users")!))
        #expect(!origin.contains(URL(string: "http://graph.microsoft.com/v1.0/users")!))
        #expect(!origin.contains(URL(string: "https://graph.microsoft.com:8443/v1.0/users")!))
        #expect(!origin.contains(URL(string: "https://graph.microsoft.com.evil.example/v1.0/users")!))
        #expect(!origin.contains(URL(string: "https://evil.example/v1.0/users")!))
    }

    @Test("Graph error JSON yields code, message, request-id and date, innerError in any case")
    func graphErrorParsing() {
        let body = Data(
            #"{"error":{"code":"Request_UnsupportedQuery","message":"Unsupported Query.","innererror":{"date":"2021-05-18T19:12:36","request-id":"63f2093c","client-request-id":"e60ed0ba"}}}"#
                .utf8)
        let error = GraphServiceError.parse(status: 400, headers: [:], body: body, url: "https://g/v1.0/users")
        #expect(error.code == "Request_UnsupportedQuery")
        #expect(error.requestId == "63f2093c")
        #expect(error.date == "2021-05-18T19:12:36")
        #expect(error.summary.contains("Unsupported Query."))
        #expect(error.summary.contains("request-id 63f2093c"))
    }

    @Test("token errors show the AADSTS code and a hint")
    func tokenErrorHint() {
        let body = Data(
            #"{"error":"invalid_client","error_description":"AADSTS7000215: Invalid client secret provided.\r\nTrace ID: t\r\nCorrelation ID: c\r\nTimestamp: 2024-01-01 00:00:00Z","error_codes":[7000215],"trace_id":"t","correlation_id":"c"}"#
                .utf8)
        let error = TokenEndpointError.parse(status: 401, body: body)
        #expect(error.aadstsCode == "AADSTS7000215")
        #expect(error.summary.contains("AADSTS7000215: Invalid client secret provided."))
        #expect(error.summary.contains("hint: the client secret is wrong"))
        #expect(!error.summary.contains("\n"))
    }

    @Test("normalization trims, turns blanks into nil and drops blank phones")
    func normalization() throws {
        let json = Data(
            ##"{"id":" 42 ","userPrincipalName":"a@b.c","displayName":"  Ada \n Lovelace ","givenName":"","surname":null,"mail":"  ","businessPhones":["", null, " +1 425 555 0100 ", "+1 425 555 0100"],"mobilePhone":null,"employeeType":"FTE","@odata.type":"#microsoft.graph.user"}"##
                .utf8)
        let raw = try JSONDecoder().decode(GraphUser.self, from: json)
        let user = try #require(UserNormalizer().normalize(raw))
        #expect(user.id == "42")
        #expect(user.displayName == "Ada Lovelace")
        #expect(user.givenName == nil)
        #expect(user.mail == nil)
        #expect(user.businessPhones == ["+1 425 555 0100"])
        #expect(user.extra == ["employeeType": "FTE"])
    }

    @Test("a user without an id is dropped")
    func noId() throws {
        let raw = try JSONDecoder().decode(GraphUser.self, from: Data(#"{"displayName":"x"}"#.utf8))
        #expect(UserNormalizer().normalize(raw) == nil)
    }
}

@Suite("Next link scanner")
struct NextLinkScannerTests {
    @Test("finds the nextLink key wherever it stands and unescapes it")
    func finds() {
        let body = Data(
            #"{"@odata.context":"x","value":[{"id":"1"}],"@odata.nextLink":"https:\/\/g\/v1.0\/users?$skiptoken=RFNwdA%3D%3D"}"#
                .utf8)
        #expect(NextLinkScanner.nextLink(in: body) == "https://g/v1.0/users?$skiptoken=RFNwdA%3D%3D")
    }

    @Test("a value that merely contains the key text is not taken for the key")
    func ignoresEscapedText() {
        let body = Data(#"{"value":[{"displayName":"\"@odata.nextLink\":\"https://evil\""}]}"#.utf8)
        #expect(NextLinkScanner.nextLink(in: body) == nil)
    }

    @Test("the last page has no link")
    func lastPage() {
        #expect(NextLinkScanner.nextLink(in: Data(#"{"value":[]}"#.utf8)) == nil)
    }
}
