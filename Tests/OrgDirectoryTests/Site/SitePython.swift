import Foundation
import TestSupport

/// Runs a Python 3 script from a test: the independent parsers (csv, xml.etree) the exports and the feed must
/// satisfy, so our own readers are not the only judge of our own writers.
enum SitePython {
    /// python3 on this machine, or nil (the tests that need it are then skipped with a message).
    static let executable = ChildProcess.python3

    /// What a script printed and how it ended.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `script` with `arguments`; stdout and stderr go through files so a large output cannot block.
    static func run(_ script: String, _ arguments: [String]) throws -> Outcome {
        let folder = try SiteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scriptFile = folder.appendingPathComponent("check.py")
        try Data(script.utf8).write(to: scriptFile)
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: executable ?? "/usr/bin/python3"), [scriptFile.path] + arguments)
        return Outcome(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
    }

    /// Runs `script` and decodes the JSON it prints.
    static func json(_ script: String, _ arguments: [String]) throws -> Any {
        let outcome = try run(script, arguments)
        guard outcome.status == 0 else { throw Failure(message: outcome.stderr) }
        return try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
    }

    /// A script that failed: its stderr says why (an assertion names the line at fault).
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Reads a CSV file with Python's csv module (strict mode) and prints its rows as JSON.
    static let csvReader = """
        import csv, json, sys
        raw = open(sys.argv[1], "rb").read()
        assert raw.startswith(b"\\xef\\xbb\\xbf"), "no UTF-8 byte order mark"
        with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
            rows = list(csv.reader(f, strict=True))
        print(json.dumps(rows))
        """

    /// A strict RFC 6350 reader: every physical line at most 75 octets and valid UTF-8 on its own (so folding
    /// never split a sequence), CRLF only, `BEGIN`/`VERSION:4.0`/`FN`/`END` in place, only the escapes `\\\\`,
    /// `\\,`, `\\;`, `\\n` in text, no raw comma or backslash. Prints the cards' decoded properties as JSON.
    static let vCardReader = #"""
        import json, re, sys
        data = open(sys.argv[1], "rb").read()
        assert data.endswith(b"\r\n"), "the file does not end in CRLF"
        physical = data.split(b"\r\n")[:-1]
        for number, line in enumerate(physical, 1):
            assert len(line) <= 75, "line %d has %d octets" % (number, len(line))
            assert b"\r" not in line and b"\n" not in line, "bare CR or LF on line %d" % number
            line.decode("utf-8")  # strict: a split UTF-8 sequence fails here
        logical = []
        for line in physical:
            if line[:1] in (b" ", b"\t"):
                assert logical, "a continuation line comes first"
                logical[-1] += line[1:]
            else:
                logical.append(line)
        content = re.compile(r'^([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:]*))*):(.*)$', re.S)
        def components(value):
            parts, current, index = [], "", 0
            while index < len(value):
                char = value[index]
                if char == "\\":
                    assert index + 1 < len(value), "dangling backslash in %r" % value
                    escaped = value[index + 1]
                    assert escaped in "nN\\,;", "unknown escape \\%s in %r" % (escaped, value)
                    current += "\n" if escaped in "nN" else escaped
                    index += 2
                    continue
                assert char != ",", "raw comma in %r" % value
                if char == ";":
                    parts.append(current)
                    current = ""
                else:
                    current += char
                index += 1
            parts.append(current)
            return parts
        cards, card = [], None
        for raw in logical:
            match = content.match(raw.decode("utf-8"))
            assert match, "not a content line: %r" % raw
            name, params, value = match.group(1).upper(), match.group(2), match.group(3)
            if name == "BEGIN":
                assert card is None and value == "VCARD", "BEGIN inside a card"
                card = {"_order": []}
                continue
            assert card is not None, "%s outside a card" % name
            card["_order"].append(name)
            if name == "END":
                assert value == "VCARD"
                assert card["_order"][0] == "VERSION" and card["VERSION"] == ["4.0"], "VERSION:4.0 must come first"
                assert card["_order"].count("FN") == 1, "exactly one FN"
                del card["_order"]
                cards.append(card)
                card = None
                continue
            if name == "TEL" and "VALUE=uri" in params:
                assert re.match(r"^tel:\+[0-9]+(;ext=[0-9]+)?$", value), "bad tel URI %r" % value
                card.setdefault(name, []).append(value)
            elif name in ("N", "ORG", "ADR"):
                card.setdefault(name, []).append(components(value))
            else:
                parts = components(value)
                assert len(parts) == 1 or name == "UID", "raw semicolon in %s %r" % (name, value)
                card[name] = card.get(name, []) + [";".join(parts)]
        assert card is None, "the last card is not closed"
        print(json.dumps(cards))
        """#
}
