// Generated from Templates/assets/ by SiteBuiltinTemplatesTests; a test checks they stay equal.

extension BuiltinTemplates {
    /// Static files by site path (`assets/site.css`), copied to every site.
    static let assets: [String: String] = [
        "assets/search.js": #"""
        // orgdir phone-book search. Plain JavaScript, no dependencies, no inline script (the pages' CSP forbids it).
        // Search data lives in search/*.js files that call window.orgdirShard(kind, id, data); they are loaded with
        // <script> tags on demand, which works from file:// as well as from any static web server.
        // The folding rules below must match SearchFolding.swift (a test runs both on the same table).
        (function () {
          "use strict";

          // Letters that fold differently in the two variants (base, expanded), or that Unicode does not decompose.
          var FOLD_TABLE = {
            "ä": ["a", "ae"], "ö": ["o", "oe"], "ü": ["u", "ue"], "ø": ["o", "oe"], "å": ["a", "aa"],
            "ß": ["ss", "ss"], "æ": ["ae", "ae"], "œ": ["oe", "oe"], "ł": ["l", "l"], "đ": ["d", "d"],
            "ð": ["d", "d"], "þ": ["th", "th"], "ı": ["i", "i"], "ħ": ["h", "h"], "ŧ": ["t", "t"],
            "ŀ": ["l", "l"], "ĳ": ["ij", "ij"], "ſ": ["s", "s"], "ς": ["σ", "σ"], "ـ": ["", ""]
          };
          // Combining marks dropped after NFD: accents, Hebrew points, Arabic harakat.
          var DROPPED_MARKS = /[\u0300-\u036F\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4\u05C5\u05C7\u064B-\u065F\u0670\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/g;
          var APOSTROPHES = /['\u2019\u02BC]/g;
          var SEPARATORS = /[^\p{L}\p{M}\p{Nd}]+/u;
          var RESULTS_PAGE = 50;
          var MULTI_SHARD_LIMIT = 96 * 1024;
          // A phone fragment whose every three-digit run is in most numbers (a shared prefix) would load a huge shard.
          var DIGIT_SHARD_LIMIT = 160 * 1024;

          /** Both variants of a string: [base, expanded]. */
          function fold(text) {
            var lower = text.normalize("NFC").toLowerCase();
            var base = "", expanded = "";
            for (var ch of lower) {
              var mapped = FOLD_TABLE[ch];
              if (mapped) { base += mapped[0]; expanded += mapped[1]; } else { base += ch; expanded += ch; }
            }
            return [dropMarks(base), dropMarks(expanded)];
          }

          function dropMarks(text) {
            return text.normalize("NFD").replace(DROPPED_MARKS, "").normalize("NFC");
          }

          function words(text) {
            return text.replace(APOSTROPHES, "").split(SEPARATORS).filter(function (w) { return w.length > 0; });
          }

          /** The query terms: text words (both variants) and phone digit runs such as "+1 425" → "1425". */
          function parseQuery(query) {
            var terms = [];
            // A digit run starts a word (not "a0") and may hold spaces, dots, dashes, slashes and parentheses.
            var rest = query.replace(/(?<![\p{L}\p{M}\p{Nd}])\+?\(?\d[\d\s().\/-]*/gu, function (run) {
              var digits = run.replace(/\D/g, "");
              if (digits.length >= 3) { terms.push({ digits: digits, variants: [digits] }); return " "; }
              return run;
            });
            var folded = fold(rest);
            var baseWords = words(folded[0]);
            var expandedWords = words(folded[1]);
            for (var i = 0; i < baseWords.length; i++) {
              var variants = [baseWords[i]];
              if (expandedWords.length === baseWords.length && expandedWords[i] !== baseWords[i]) variants.push(expandedWords[i]);
              terms.push({ digits: null, variants: variants });
            }
            return terms;
          }

          // ---- Loading shards -------------------------------------------------------------------------------------
          var scriptBase = "search/";
          var cache = { m: {}, t: {}, d: {}, r: {}, o: {}, ot: {}, od: {}, or: {} };
          var waiting = {};

          window.orgdirShard = function (kind, id, data) {
            if (!cache[kind]) return;
            cache[kind][id] = data;
            var key = kind + ":" + id;
            if (waiting[key]) { waiting[key].forEach(function (w) { w.resolve(data); }); delete waiting[key]; }
          };

          function load(kind, id) {
            if (Object.prototype.hasOwnProperty.call(cache[kind], id)) return Promise.resolve(cache[kind][id]);
            var key = kind + ":" + id;
            return new Promise(function (resolve, reject) {
              if (waiting[key]) { waiting[key].push({ resolve: resolve, reject: reject }); return; }
              waiting[key] = [{ resolve: resolve, reject: reject }];
              var script = document.createElement("script");
              script.src = scriptBase + (kind === "m" ? "manifest.js" : kind + "/" + id + ".js");
              script.async = true;
              script.onerror = function () {
                var list = waiting[key] || [];
                delete waiting[key];
                list.forEach(function (w) { w.reject(new Error("cannot load " + script.src)); });
              };
              document.head.appendChild(script);
            });
          }

          function decode(deltas) {
            var out = new Array(deltas.length), value = 0;
            for (var i = 0; i < deltas.length; i++) { value += deltas[i]; out[i] = value; }
            return out;
          }

          // ---- The overlay ---------------------------------------------------------------------------------------------
          // A site whose manifest names a base also has search/o/0.js: who changed since the base files were made. Base
          // positions in "gone" no longer count; overlay person j is ranked at key at[j] - 1 + (j + 1) / (n + 1), just
          // before the base person at[j] and after every overlay person before it, never at a whole number.
          var overlayReady = null;

          function prepareOverlay(data) {
            var at = decode(data.at), n = at.length, keys = new Array(n), index = new Map();
            for (var j = 0; j < n; j++) { keys[j] = at[j] - 1 + (j + 1) / (n + 1); index.set(keys[j], j); }
            return { data: data, keys: keys, index: index, gone: decode(data.gone) };
          }

          /** The manifest and the prepared overlay (null when the site has none). */
          function loadIndex() {
            if (overlayReady) return overlayReady;
            overlayReady = load("m", "0").then(function (manifest) {
              if (!manifest.base) return { manifest: manifest, overlay: null };
              return load("o", "0").then(function (data) {
                if (data.base !== manifest.base) throw new Error("search data is being replaced, reload the page");
                return { manifest: manifest, overlay: prepareOverlay(data) };
              });
            });
            overlayReady.catch(function () { overlayReady = null; });
            return overlayReady;
          }

          /** Adds the overlay's matches of one term to found (key → class), after dropping the base's gone positions. */
          function overlayMatches(overlay, term, found) {
            overlay.gone.forEach(function (position) { found.delete(position); });
            var data = overlay.data, jobs = [];
            term.variants.forEach(function (variant) {
              var first = String.fromCodePoint(variant.codePointAt(0));
              for (var i = 0; i < data.tokens.length; i++) {
                if (data.tokens[i][0] !== first) continue;
                jobs.push(load("ot", String(i)).then(function (bucket) { return { word: variant, bucket: bucket }; }));
              }
            });
            if (term.digits && data.digits > 0) jobs.push(load("od", "0").then(function (list) { return { digits: list }; }));
            return Promise.all(jobs).then(function (loaded) {
              function add(j, cls) {
                var key = overlay.keys[j], previous = found.get(key);
                if (previous === undefined || previous > cls) found.set(key, cls);
              }
              loaded.forEach(function (job) {
                if (job.digits) {
                  var number = 0;
                  job.digits.forEach(function (entry) { number += entry[0]; if (entry[1].indexOf(term.digits) >= 0) add(number, 1); });
                  return;
                }
                job.bucket.forEach(function (pair) {
                  if (!pair[0].startsWith(job.word)) return;
                  for (var cls = 0; cls < 3; cls++) decode(pair[1][cls]).forEach(function (j) { add(j, cls); });
                });
              });
              return found;
            });
          }

          /** The shard leaves to load for one folded word, or null when the word is too short to search yet. */
          function leavesFor(manifest, word) {
            var leaves = manifest.leaves, best = -1;
            for (var i = 0; i < leaves.length; i++) {
              if (!leaves[i][1] && word.startsWith(leaves[i][0]) && (best < 0 || leaves[i][0].length > leaves[best][0].length)) best = i;
            }
            if (best >= 0) return [best];
            var below = [], size = 0;
            for (var j = 0; j < leaves.length; j++) {
              if (leaves[j][0].startsWith(word)) { below.push(j); size += leaves[j][2]; }
            }
            return size > MULTI_SHARD_LIMIT ? null : below;
          }

          /** Matches of one term: Map(position → match class), or null when the term is too broad. */
          function matchTerm(index, term) {
            var manifest = index.manifest;
            var jobs = [];
            var tooBroad = false;
            term.variants.forEach(function (variant) {
              var leaves = leavesFor(manifest, variant);
              if (leaves === null) { if (!term.digits) tooBroad = true; return; }
              leaves.forEach(function (n) { jobs.push(load("t", String(n)).then(function (shard) { return { word: variant, shard: shard }; })); });
            });
            var digitKey = null;
            if (term.digits) {
              var bestSize = Infinity;
              for (var i = 0; i + 3 <= term.digits.length; i++) {
                var tri = term.digits.substr(i, 3), size = manifest.digits[tri];
                if (size === undefined) { bestSize = -1; digitKey = null; break; }
                if (size < bestSize) { bestSize = size; digitKey = tri; }
              }
              if (bestSize > DIGIT_SHARD_LIMIT) { digitKey = null; tooBroad = true; }
            }
            if (tooBroad && !digitKey) return Promise.resolve(null);
            var digitJob = digitKey ? load("d", digitKey) : Promise.resolve(null);
            return Promise.all([Promise.all(jobs), digitJob]).then(function (loaded) {
              var found = new Map();
              loaded[0].forEach(function (job) {
                for (var t = 0; t < job.shard.length; t++) {
                  if (!job.shard[t][0].startsWith(job.word)) continue;
                  var lists = job.shard[t][1];
                  for (var cls = 0; cls < 3; cls++) {
                    var positions = decode(lists[cls]);
                    for (var p = 0; p < positions.length; p++) {
                      var previous = found.get(positions[p]);
                      if (previous === undefined || previous > cls) found.set(positions[p], cls);
                    }
                  }
                }
              });
              if (loaded[1]) {
                var position = 0;
                loaded[1].forEach(function (entry) {
                  position += entry[0];
                  if (entry[1].indexOf(term.digits) >= 0) {
                    var previous = found.get(position);
                    if (previous === undefined || previous > 1) found.set(position, 1);
                  }
                });
              }
              return index.overlay ? overlayMatches(index.overlay, term, found) : found;
            });
          }

          /** Ranked positions for a query: every term must match (AND); better classes and display order first. */
          function search(query) {
            var terms = parseQuery(query);
            if (terms.length === 0) return Promise.resolve({ positions: [], tooBroad: false });
            return loadIndex().then(function (index) {
              return Promise.all(terms.map(function (t) { return matchTerm(index, t); })).then(function (maps) {
                if (maps.some(function (m) { return m === null; })) return { positions: [], tooBroad: true };
                maps.sort(function (a, b) { return a.size - b.size; });
                var scored = [];
                maps[0].forEach(function (cls, position) {
                  var score = cls;
                  for (var i = 1; i < maps.length; i++) {
                    var other = maps[i].get(position);
                    if (other === undefined) return;
                    score += other;
                  }
                  scored.push([score, position]);
                });
                scored.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
                return { positions: scored.map(function (s) { return s[1]; }), tooBroad: false };
              });
            });
          }

          /** The display records at positions: base positions from search/r, overlay keys from search/or. */
          function records(index, positions) {
            var manifest = index.manifest, overlay = index.overlay, jobs = {};
            function place(p) {
              if (Number.isInteger(p)) return ["r", Math.floor(p / manifest.chunk), p % manifest.chunk];
              var j = overlay.index.get(p);
              return ["or", Math.floor(j / overlay.data.chunk), j % overlay.data.chunk];
            }
            var places = positions.map(place);
            places.forEach(function (at) { jobs[at[0] + ":" + at[1]] = at; });
            return Promise.all(Object.keys(jobs).map(function (k) { return load(jobs[k][0], String(jobs[k][1])); })).then(function () {
              return places.map(function (at) { return cache[at[0]][String(at[1])][at[2]]; });
            });
          }

          // ---- The page -------------------------------------------------------------------------------------------
          var input, status, list, more, moreButton, everyone;
          var current = { query: "", positions: [], shown: 0, serial: 0 };

          function element(tag, className, text) {
            var node = document.createElement(tag);
            if (className) node.className = className;
            if (text) node.textContent = text;
            return node;
          }

          function row(record) {
            // record: [name, jobTitle, department, phone, phoneHref, mail, slug]; textContent only, never innerHTML.
            var li = element("li", "person");
            var name = element("a", "name", record[0]);
            name.href = "people/" + encodeURIComponent(record[6]) + ".html";
            li.appendChild(name);
            if (record[1]) { li.appendChild(document.createTextNode(" ")); li.appendChild(element("span", "job", record[1])); }
            if (record[2]) { li.appendChild(document.createTextNode(" ")); li.appendChild(element("span", "dept", record[2])); }
            if (record[3]) {
              li.appendChild(document.createTextNode(" "));
              var phone = element(record[4] ? "a" : "span", "phone", record[3]);
              if (record[4]) phone.href = record[4];
              li.appendChild(phone);
            }
            if (record[5]) {
              li.appendChild(document.createTextNode(" "));
              var mail = element("a", "mail", record[5]);
              mail.href = "mailto:" + encodeURIComponent(record[5]).replace(/%40/g, "@");
              li.appendChild(mail);
            }
            return li;
          }

          function setStatus(text) {
            if (status.textContent !== text) status.textContent = text;
          }

          function showMore(serial) {
            return loadIndex().then(function (index) {
              var slice = current.positions.slice(current.shown, current.shown + RESULTS_PAGE);
              return records(index, slice).then(function (recs) {
                if (serial !== current.serial) return;
                recs.forEach(function (r) { if (r) list.appendChild(row(r)); });
                current.shown += slice.length;
                more.hidden = current.shown >= current.positions.length;
              });
            });
          }

          function updateURL(query) {
            try {
              var url = new URL(window.location.href);
              if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
              window.history.replaceState(null, "", url.toString());
            } catch (e) { /* some browsers refuse history changes on file:// pages: the search still works */ }
          }

          function run() {
            var query = input.value.trim();
            if (query === current.query) return;
            current.query = query;
            var serial = ++current.serial;
            updateURL(query);
            if (!query) {
              list.hidden = true; more.hidden = true; list.textContent = "";
              if (everyone) everyone.hidden = false;
              setStatus("");
              return;
            }
            search(query).then(function (result) {
              if (serial !== current.serial) return;
              list.textContent = "";
              current.positions = result.positions;
              current.shown = 0;
              list.hidden = false;
              if (everyone) everyone.hidden = true;
              if (result.tooBroad) { setStatus("Keep typing to narrow the search."); more.hidden = true; return; }
              var n = result.positions.length;
              setStatus(n === 0 ? "No one found." : n === 1 ? "1 person found." : n + " people found.");
              return showMore(serial);
            }).catch(function (error) {
              if (serial !== current.serial) return;
              setStatus("Search data could not be loaded (" + error.message + ").");
            });
          }

          function resultLinks() {
            return Array.prototype.slice.call(list.querySelectorAll("a.name"));
          }

          function onKey(event) {
            if (event.key === "/" && document.activeElement !== input && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) {
              event.preventDefault(); input.focus(); input.select(); return;
            }
            var links = resultLinks();
            var at = links.indexOf(document.activeElement);
            if (event.key === "ArrowDown" && (document.activeElement === input || at >= 0)) {
              event.preventDefault();
              if (links.length) links[Math.min(at + 1, links.length - 1)].focus();
            } else if (event.key === "ArrowUp" && at >= 0) {
              event.preventDefault();
              if (at === 0) input.focus(); else links[at - 1].focus();
            } else if (event.key === "Escape" && at >= 0) {
              input.focus();
            } else if (event.key === "Enter" && document.activeElement === input) {
              event.preventDefault();
              if (links.length) window.location.href = links[0].href;
            }
          }

          function start() {
            input = document.getElementById("search-input");
            if (!input) return;
            status = document.getElementById("search-status");
            list = document.getElementById("search-results");
            more = document.getElementById("search-more");
            moreButton = document.getElementById("search-more-button");
            everyone = document.querySelector("#everyone ul.people");
            document.getElementById("search-form").addEventListener("submit", function (e) { e.preventDefault(); run(); });
            input.addEventListener("input", run);
            moreButton.addEventListener("click", function () { showMore(current.serial); });
            document.addEventListener("keydown", onKey);
            var q = new URLSearchParams(window.location.search).get("q");
            if (q) { input.value = q; run(); }
          }

          // Exposed for the test harness that checks JavaScript and Swift fold alike.
          window.orgdirSearch = { fold: fold, words: words, parseQuery: parseQuery, search: search };

          if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
        })();

        """#,
        "assets/site.css": #"""
        /* orgdir phone book. System fonts only; colours meet WCAG AA (4.5:1) in light and dark mode. */
        :root {
          color-scheme: light dark;
          --bg: #ffffff;
          --fg: #1b1f24;
          --muted: #4d5661;
          --link: #0b57b8;
          --line: #d5dae0;
          --panel: #f3f5f8;
          --focus: #b35900;
          --accent: #0b57b8;
          --accent-fg: #ffffff;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #15181c;
            --fg: #e8ebef;
            --muted: #aeb6c0;
            --link: #8ab8ff;
            --line: #39414b;
            --panel: #1f242a;
            --focus: #ffb86b;
            --accent: #8ab8ff;
            --accent-fg: #0d1117;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0;
          background: var(--bg);
          color: var(--fg);
          font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif;
          overflow-wrap: anywhere;
        }
        a { color: var(--link); }
        a:hover { text-decoration-thickness: 2px; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 2px; }
        .skip-link { position: absolute; left: -999px; top: 0; background: var(--panel); padding: .5rem 1rem; z-index: 10; }
        .skip-link:focus { left: .5rem; }
        .visually-hidden {
          position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
        }
        .site-header {
          display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center;
          padding: .75rem max(1rem, calc((100% - 72rem) / 2)); border-bottom: 1px solid var(--line); background: var(--panel);
        }
        .site-title { font-weight: 700; font-size: 1.15rem; color: var(--fg); text-decoration: none; }
        .site-header nav ul, .letters ul, .pager ul, .person-links ul {
          list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem;
        }
        .header-search { display: flex; gap: .5rem; margin-left: auto; }
        main { display: block; max-width: 72rem; margin: 0 auto; padding: 1rem; }
        main:focus { outline: none; }
        h1 { font-size: 1.75rem; line-height: 1.2; margin: .5rem 0 1rem; }
        h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
        input[type="search"] {
          font: inherit; color: var(--fg); background: var(--bg); border: 2px solid var(--muted); border-radius: 6px;
          padding: .5rem .75rem; min-width: 0;
        }
        .search input[type="search"] { width: 100%; font-size: 1.2rem; }
        .search label { display: block; font-weight: 600; margin-bottom: .35rem; }
        button {
          font: inherit; color: var(--accent-fg); background: var(--accent); border: 0; border-radius: 6px; padding: .45rem .9rem;
          cursor: pointer;
        }
        .hint, .status, .count { color: var(--muted); }
        .hint { font-size: .9rem; margin: .4rem 0; }
        kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 .3rem; font-size: .85em; }
        .status { min-height: 1.5em; font-weight: 600; }
        .people { list-style: none; margin: 0; padding: 0; }
        .person {
          display: grid; grid-template-columns: minmax(10rem, 1.4fr) 1.2fr 1fr minmax(8rem, .9fr) minmax(10rem, 1.3fr);
          gap: .2rem 1rem; padding: .45rem 0; border-bottom: 1px solid var(--line); align-items: baseline;
        }
        .person .name { font-weight: 600; grid-column: 1; }
        .person .job { grid-column: 2; }
        .person .dept { grid-column: 3; color: var(--muted); }
        .person .phone { grid-column: 4; white-space: nowrap; font-variant-numeric: tabular-nums; }
        .person .mail { grid-column: 5; }
        .letters { margin: .5rem 0 1rem; }
        .letters a { display: inline-block; min-width: 2rem; padding: .15rem .35rem; text-align: center; }
        .letters a[aria-current="page"], .pager a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
        .letter-counts, .departments { columns: 16rem auto; padding-left: 1.25rem; }
        .pager { margin: 1rem 0; }
        .person-page ul { padding-left: 1.25rem; }
        .person-page li { margin: .2rem 0; }
        .person-page table { border-collapse: collapse; }
        .person-page th, .person-page td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; }
        .person-links { margin-top: 1.5rem; padding-top: .75rem; border-top: 1px solid var(--line); }
        .night { border-bottom: 1px solid var(--line); padding-bottom: .5rem; }
        .night h3 { font-size: 1rem; margin: .75rem 0 .25rem; }
        .summary { color: var(--muted); font-weight: 600; margin: .25rem 0; }
        .changes { margin: 0; padding-left: 1.25rem; }
        .changes .fields { padding-left: 1.25rem; }
        .changes .move strong { color: var(--fg); }
        .site-footer {
          max-width: 72rem; margin: 2rem auto 0; padding: 1rem; border-top: 1px solid var(--line); color: var(--muted);
          font-size: .9rem;
        }
        .site-footer a { margin-left: .5rem; }
        @media (max-width: 48rem) {
          .person { grid-template-columns: 1fr; gap: 0; }
          .person .name, .person .job, .person .dept, .person .phone, .person .mail { grid-column: 1; }
          .header-search { margin-left: 0; width: 100%; }
          .header-search input { flex: 1; }
          h1 { font-size: 1.5rem; }
        }
        @media print {
          :root { --bg: #fff; --fg: #000; --muted: #333; --link: #000; --line: #bbb; }
          body { font-size: 9pt; line-height: 1.25; }
          .site-header, .site-footer a, .search, .hint, .letters, .pager, .person-links, .skip-link, noscript { display: none; }
          main { max-width: none; padding: 0; }
          h1 { font-size: 14pt; margin: 0 0 4pt; }
          a { text-decoration: none; }
          .person {
            grid-template-columns: 2fr 1.6fr 1.3fr 1.2fr 2fr; padding: 1pt 0; gap: 0 6pt; break-inside: avoid;
          }
          .person .dept { color: #000; }
          .person-page a[href^="tel:"]::after, .person-page a[href^="mailto:"]::after { content: ""; }
        }

        """#,
    ]
}
