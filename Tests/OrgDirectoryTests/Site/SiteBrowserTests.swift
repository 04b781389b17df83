import Foundation
import Testing

@testable import OrgDirectory

/// The site in a real browser (Debian's chromium, headless): search from file:// and over HTTP, keyboard,
/// console and CSP, the folding rules of search.js against Swift's, and screenshots in test-artifacts/.
@Suite(
    "Site in a browser", .serialized,
    .enabled(
        if: SiteChromium.installed != nil, "chromium is not installed: browser tests skipped (make test installs it)"))
struct SiteBrowserTests {
    static let artifacts = SiteBuiltinTemplatesTests.repository.appendingPathComponent("test-artifacts")

    /// Result names and the status line of a dumped index page.
    static func results(in dom: String) -> (status: String, names: [String]) {
        func between(_ text: Substring, _ start: String, _ end: String) -> Substring? {
            guard let open = text.range(of: start), let close = text[open.upperBound...].range(of: end) else {
                return nil
            }
            return text[open.upperBound..<close.lowerBound]
        }
        let status =
            between(dom[...], "id=\"search-status\"", "</p>").map { String($0.drop { $0 != ">" }.dropFirst()) } ?? ""
        var names: [String] = []
        var rest = between(dom[...], "id=\"search-results\"", "</ul>") ?? ""
        while let name = between(rest, "class=\"name\"", "</a>") {
            names.append(String(name.drop { $0 != ">" }.dropFirst()))
            rest = rest[(rest.range(of: "class=\"name\"")?.upperBound ?? rest.endIndex)...]
        }
        return (status, names)
    }

    @Test(
        "searching from file:// finds people by accents, transliteration, digits, script and department",
        arguments: [
            ("jurgen", "Jürgen Müller"), ("juergen", "Jürgen Müller"), ("Jürgen", "Jürgen Müller"),
            ("0134", "Jürgen Müller"),
            ("+1 425", "Jürgen Müller"), ("петров", "Иван Петров"), ("finance", "Gertrud Straßer"),
            ("strasse", "Gertrud Straßer"),
            ("παπαδόπουλος", "Νίκος Παπαδόπουλος"),
        ])
    func fileSearch(query: String, expected: String) async throws {
        let chromium = try #require(SiteChromium.installed)
        let (folder, _) = try await SiteFixtures.renderSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        var components = URLComponents(url: folder.appendingPathComponent("index.html"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "q", value: query)]
        let url = try #require(components?.url?.absoluteString)
        let output = try chromium.dumpDOM(url)
        let (status, names) = Self.results(in: output.dom)
        #expect(names.contains(SiteEscaping.html(expected)), "\(query): \(status) \(names)")
        #expect(status.contains("found"), "\(query): status \(status)")
        #expect(output.console.isEmpty, "console: \(output.console)")
    }

    @Test("hostile names show as text in results and never run")
    func hostileResults() async throws {
        let chromium = try #require(SiteChromium.installed)
        let (folder, _) = try await SiteFixtures.renderSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try chromium.dumpDOM(folder.appendingPathComponent("index.html").absoluteString + "?q=script")
        let (_, names) = Self.results(in: output.dom)
        #expect(names.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(names)")
        let imgOutput = try chromium.dumpDOM(folder.appendingPathComponent("index.html").absoluteString + "?q=onerror")
        #expect(!imgOutput.dom.contains("<img"))
        #expect(Self.results(in: imgOutput.dom).names.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(output.console.isEmpty && imgOutput.console.isEmpty, "\(output.console) \(imgOutput.console)")
    }

    @Test("search.js folds exactly like SearchFolding.swift")
    func foldingAgrees() async throws {
        let chromium = try #require(SiteChromium.installed)
        let folder = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs =
            SiteFoldingTests.table.map(\.0) + SiteFixtures.hostile + SiteBenchmarkDirectory.given
            + SiteBenchmarkDirectory.family + ["ǅemal", "ﬁnn", "Ǆ", "ΣΟΦΟΣ", "ﬀ", "ŉ", "Ꭰ", "𝔄", "Ǻ", "ÿ"]
        try Data((BuiltinTemplates.assets["assets/search.js"] ?? "").utf8).write(
            to: folder.appendingPathComponent("search.js"))
        let list = "[" + inputs.map(SiteEscaping.jsonString).joined(separator: ",") + "]"
        try Data(
            """
            var inputs = \(list);
            var out = inputs.map(function (s) { var f = window.orgdirSearch.fold(s); return [f[0], f[1], window.orgdirSearch.words(f[0])]; });
            document.getElementById("out").textContent = JSON.stringify(out);
            """.utf8
        ).write(to: folder.appendingPathComponent("check.js"))
        try Data(
            """
            <!DOCTYPE html><meta charset="utf-8"><pre id="out"></pre><script src="search.js"></script><script src="check.js"></script>
            """.utf8
        ).write(to: folder.appendingPathComponent("check.html"))
        let output = try chromium.dumpDOM(folder.appendingPathComponent("check.html").absoluteString, budget: 2000)
        let json = try #require(
            output.dom.components(separatedBy: "<pre id=\"out\">").last?.components(separatedBy: "</pre>").first)
        let unescaped = json.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        let folds = try #require(try JSONSerialization.jsonObject(with: Data(unescaped.utf8)) as? [[Any]])
        #expect(folds.count == inputs.count)
        for (input, fold) in zip(inputs, folds) {
            let swift = SearchFolding.fold(input)
            #expect(fold[0] as? String == swift.base, "base of \(input)")
            #expect(fold[1] as? String == swift.expanded, "expanded of \(input)")
            let words = SearchFolding.queryWords(input).map(\.base)
            #expect(fold[2] as? [String] == words, "words of \(input)")
        }
    }

    @Test("over HTTP: URL query, keyboard navigation, Enter opens, first search loads only a few shards")
    func httpAndKeyboard() async throws {
        let chromium = try #require(SiteChromium.installed)
        let (folder, _) = try await SiteFixtures.renderSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.harnessHTML.utf8).write(to: folder.appendingPathComponent("orgdir-harness.html"))
        try Data(Self.harnessJS.utf8).write(to: folder.appendingPathComponent("orgdir-harness.js"))
        let server = try SiteStaticServer(root: folder)
        defer { server.stop() }
        let output = try chromium.dumpDOM(server.baseURL + "orgdir-harness.html", budget: 30_000)
        let json = try #require(
            output.dom.components(separatedBy: "<pre id=\"result\">").last?.components(separatedBy: "</pre>").first)
        let unescaped = json.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(unescaped.utf8)) as? [String: Any], "\(json)")
        #expect(result["error"] == nil, "\(result)")
        #expect((result["firstNames"] as? [String])?.contains("Jürgen Müller") == true, "\(result)")
        #expect(result["slashFocus"] as? Bool == true, "\(result)")
        #expect(result["typedURL"] as? String == "?q=juergen", "\(result)")
        #expect(result["down1"] as? String == "name:Jürgen Müller", "\(result)")
        #expect(result["up1"] as? String == "search-input", "\(result)")
        #expect((result["entered"] as? String)?.hasPrefix("/people/jurgen-muller-") == true, "\(result)")
        #expect(result["cyrillic"] as? [String] == ["Иван Петров"], "\(result)")
        #expect(result["ariaLive"] as? String == "polite")
        let fetched = server.requestedPaths
        #expect(fetched.contains("/search/manifest.js"))
        #expect(!fetched.contains("/people.json") && !fetched.contains("/people.csv"))
        #expect(output.console.isEmpty, "console: \(output.console)")
    }

    @Test("hostile person pages and the change pages show every value as text, run nothing, keep their markup")
    func hostilePagesInBrowser() async throws {
        let chromium = try #require(SiteChromium.installed)
        let (folder, _) = try await SiteFixtures.renderSite(history: SiteFixtures.history)
        defer { try? FileManager.default.removeItem(at: folder) }
        let hostile = SiteFixtures.hostile.enumerated().map { SiteFixtures.hostileUser($1, number: $0) }
        let pages =
            hostile.map { "people/\(Slug.make(for: $0)).html" }
            + ["changes.html", "changes/2026-03-04T02-00-00Z.html", "changes/2026-03-05T02-00-00Z.html"]
        let list = "[" + pages.map(SiteEscaping.jsonString).joined(separator: ",") + "]"
        try Data(Self.harnessHTML.utf8).write(to: folder.appendingPathComponent("orgdir-harness.html"))
        try Data(("var pages = \(list);\n" + Self.inspectJS).utf8).write(
            to: folder.appendingPathComponent("orgdir-harness.js"))
        let server = try SiteStaticServer(root: folder)
        defer { server.stop() }
        let output = try chromium.dumpDOM(server.baseURL + "orgdir-harness.html", budget: 30_000)
        let json = try #require(
            output.dom.components(separatedBy: "<pre id=\"result\">").last?.components(separatedBy: "</pre>").first)
        let unescaped = json.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(unescaped.utf8)) as? [[String: Any]])
        #expect(results.count == pages.count, "\(unescaped.prefix(400))")
        for (position, result) in results.enumerated() {
            let page = pages[position]
            #expect(result["error"] == nil, "\(page): \(result)")
            #expect(result["scripts"] as? Int == 0 && result["images"] as? Int == 0, "\(page): \(result)")
            #expect(result["handlers"] as? Int == 0 && result["jsLinks"] as? Int == 0, "\(page): \(result)")
            #expect(result["landmarks"] as? String == "header,nav,main,footer", "\(page): \(result)")
            #expect(result["pwned"] as? Bool == false, "\(page)")
            if position < hostile.count {
                let expected = SiteEscaping.displayText(hostile[position].displayName)
                #expect(result["h1"] as? String == expected, "\(page): \(result["h1"] ?? "")")
            }
        }
        #expect(output.console.isEmpty, "console (CSP violations show here): \(output.console)")
    }

    /// Loads each page of `pages` in the harness iframe and reports what its DOM holds.
    static let inspectJS = """
        (async function () {
          var out = [];
          var frame = document.getElementById("frame");
          function load(url) { return new Promise(function (r) { frame.onload = function () { r(); }; frame.src = url; }); }
          for (var i = 0; i < pages.length; i++) {
            try {
              await load(pages[i]);
              var d = frame.contentDocument, w = frame.contentWindow;
              var handlers = 0;
              d.querySelectorAll("*").forEach(function (e) {
                for (var a = 0; a < e.attributes.length; a++) { if (/^on/i.test(e.attributes[a].name)) handlers++; }
              });
              var landmarks = ["header", "nav", "main", "footer"].filter(function (t) { return d.querySelector(t); });
              var h1 = d.querySelector("h1");
              out.push({
                scripts: d.querySelectorAll("script").length, images: d.querySelectorAll("img").length,
                handlers: handlers, landmarks: landmarks.join(","),
                jsLinks: Array.prototype.filter.call(d.querySelectorAll("a[href]"), function (a) {
                  return /^\\s*javascript:/i.test(a.getAttribute("href")); }).length,
                h1: h1 ? h1.textContent : null, pwned: w.pwned === true
              });
            } catch (e) { out.push({ error: String(e) }); }
          }
          document.getElementById("result").textContent = JSON.stringify(out);
        })();
        """

    @Test("at 100,000 people a first search in Chromium fetches under 200 KB compressed, page and assets included")
    func firstSearchBudget() async throws {
        let chromium = try #require(SiteChromium.installed)
        let folder = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = DirectorySiteOutput(root: folder)
        let directory = SiteDirectory(users: SiteBenchmarkDirectory.users(count: 100_000), hiding: [])
        let job = SiteRenderJob(
            options: SiteOptions(), templates: try TemplateSet(overriding: nil), directory: directory,
            stamp: SiteStamp(Date(timeIntervalSince1970: 1_763_000_000)),
            history: SiteHistory(ChangeHistory(), hiding: []))
        _ = try job.renderIndex(to: output)
        _ = try job.renderSearch(to: output)
        _ = try job.writeAssets(to: output)
        let server = try SiteStaticServer(root: folder)
        defer { server.stop() }
        for (query, expectedName) in [("jurgen", "Jürgen"), ("0134", nil), ("петров", "Петров"), ("engineering", nil)] {
            let before = server.requestedPaths.count
            let page = try chromium.dumpDOM(server.baseURL + "index.html?q=" + SiteEscaping.percentEncoded(query))
            let (status, names) = Self.results(in: page.dom)
            #expect(status.contains("found") && !names.isEmpty, "\(query): \(status)")
            if let expectedName {
                #expect(names.allSatisfy { $0.contains(expectedName) }, "\(query): \(names.prefix(5))")
            }
            // Each run has a fresh profile (empty cache): everything it asked for counts, favicon probe aside.
            let fetched = Set(
                server.requestedPaths.dropFirst(before).map { String($0.split(separator: "?").first ?? "").dropFirst() }
            ).filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent(String($0)).path) }
            var bytes = 0
            for path in fetched.sorted() {
                let text = try String(contentsOf: folder.appendingPathComponent(String(path)), encoding: .utf8)
                bytes += try Gzip.size(of: text)
            }
            print(
                "first search for \"\(query)\" in Chromium at 100,000 people: \(bytes) bytes gzip, \(fetched.count) files"
            )
            #expect(bytes <= 200 * 1024, "\(query): \(bytes) bytes over \(fetched.sorted())")
            #expect(fetched.contains("index.html") && fetched.contains("search/manifest.js"), "\(fetched.sorted())")
            #expect(page.console.isEmpty, "console: \(page.console)")
        }
    }

    @Test("after a night that wrote a search overlay, search.js finds what a search built from scratch finds")
    func overlaySearch() async throws {
        let chromium = try #require(SiteChromium.installed)
        var nights = try SearchOverlayTests.Nights()
        defer { try? FileManager.default.removeItem(at: nights.root) }
        let (first, second, _) = SearchOverlayTests.nights()
        _ = try await nights.render(first)
        #expect(try await nights.render(second).searchOverlay)
        let site = try SiteSearchSimulator(folder: nights.publisher.output)
        let removed = first[20].displayName
        // The renamed, the retitled, the new phone, the newcomer, a base person by a word many share, the one gone.
        for query in ["Aaron", "Chief Kite", "4242", "Quetzalli", "Finance", "Engineering 2", removed] {
            var components = URLComponents(
                url: nights.publisher.output.appendingPathComponent("index.html"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "q", value: query)]
            let output = try chromium.dumpDOM(try #require(components?.url?.absoluteString))
            // As a DOM dump writes text: only &, < and > escaped.
            let expected = try #require(try site.rankedRecords(query)).prefix(50).map {
                $0[0].replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;")
            }
            let (status, names) = Self.results(in: output.dom)
            #expect(names == Array(expected), "\(query): \(status)")
            #expect(query == removed || !names.isEmpty, "\(query) finds someone")
            #expect(output.console.isEmpty, "console: \(output.console)")
        }
    }

    @Test("desktop and phone screenshots of the index, a search, a person page and the change page")
    func screenshots() async throws {
        let chromium = try #require(SiteChromium.installed)
        let (folder, _) = try await SiteFixtures.renderSite(history: SiteFixtures.history)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = folder.appendingPathComponent("index.html").absoluteString
        let person = folder.appendingPathComponent("people/\(Slug.make(for: SiteFixtures.jurgen)).html").absoluteString
        let changes = folder.appendingPathComponent("changes.html").absoluteString
        for (name, url) in [
            ("index", index), ("search", index + "?q=jurgen"), ("person", person), ("changes", changes),
        ] {
            for (size, window) in [("desktop", "1280,900"), ("phone", "390,844")] {
                let file = Self.artifacts.appendingPathComponent("site-\(name)-\(size).png")
                try? FileManager.default.removeItem(at: file)
                let output = try chromium.screenshot(url, to: file, windowSize: window)
                let bytes = try Data(contentsOf: file)
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file.lastPathComponent) is a PNG")
                #expect(output.console.isEmpty, "console: \(output.console)")
            }
        }
    }

    static let harnessHTML = """
        <!DOCTYPE html><meta charset="utf-8"><title>harness</title>
        <iframe id="frame" width="1000" height="700"></iframe><pre id="result"></pre>
        <script src="orgdir-harness.js"></script>
        """

    /// Drives index.html in a same-origin iframe and writes what it saw as JSON into #result.
    static let harnessJS = """
        (async function () {
          var out = {};
          var frame = document.getElementById("frame");
          function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
          function load(url) { return new Promise(function (r) { frame.onload = function () { r(); }; frame.src = url; }); }
          async function settled(d) {
            for (var i = 0; i < 200; i++) {
              var s = d.getElementById("search-status");
              if (s && s.textContent && d.querySelectorAll("#search-results li").length > 0) { await sleep(50); return; }
              await sleep(25);
            }
          }
          function names(d) { return Array.prototype.map.call(d.querySelectorAll("#search-results a.name"), function (a) { return a.textContent; }); }
          function key(d, w, target, k) { target.dispatchEvent(new w.KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true })); }
          try {
            await load("index.html?q=jurgen");
            var d = frame.contentDocument, w = frame.contentWindow;
            await settled(d);
            out.firstNames = names(d);
            out.ariaLive = d.getElementById("search-status").getAttribute("aria-live");
            await load("index.html");
            d = frame.contentDocument; w = frame.contentWindow;
            var input = d.getElementById("search-input");
            d.body.focus();
            key(d, w, d.body, "/");
            out.slashFocus = d.activeElement === input;
            input.value = "juergen";
            input.dispatchEvent(new w.Event("input", { bubbles: true }));
            await settled(d);
            out.typedURL = w.location.search;
            key(d, w, input, "ArrowDown");
            out.down1 = d.activeElement.className + ":" + d.activeElement.textContent;
            key(d, w, d.activeElement, "ArrowUp");
            out.up1 = d.activeElement.id;
            input.value = "\\u043f\\u0435\\u0442\\u0440";
            input.dispatchEvent(new w.Event("input", { bubbles: true }));
            await sleep(100);
            await settled(d);
            out.cyrillic = names(d);
            input.value = "juergen";
            input.dispatchEvent(new w.Event("input", { bubbles: true }));
            await sleep(100);
            await settled(d);
            input.focus();
            var navigated = new Promise(function (r) { frame.onload = function () { r(); }; });
            key(d, w, input, "Enter");
            await navigated;
            out.entered = frame.contentWindow.location.pathname;
          } catch (e) { out.error = String(e && e.stack || e); }
          document.getElementById("result").textContent = JSON.stringify(out);
        })();
        """
}
