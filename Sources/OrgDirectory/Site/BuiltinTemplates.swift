// Generated from Templates/*.mustache by SiteBuiltinTemplatesTests; a test checks they stay equal.
// After editing Templates/, run: ORGDIR_UPDATE_BUILTINS=1 swift test --filter SiteBuiltinTemplatesTests

/// The built-in page templates, so the binary works with no Templates folder at hand.
enum BuiltinTemplates {
    /// Template name (file name without `.mustache`) to Mustache text.
    static let templates: [String: String] = [
        "browse": #"""
        <h1>People A–Z</h1>
        {{>letters}}
        <ul class="letter-counts">
        {{#letters}}
        <li><a href="{{file}}">{{label}}</a> <span class="count">{{count}}</span></li>
        {{/letters}}
        </ul>

        """#,
        "change": #"""
        <h1>Changes on <time datetime="{{dateISO}}">{{dateDisplay}}</time></h1>
        <p><a href="{{root}}changes.html">All changes</a> · <a href="{{root}}changes.atom" type="application/atom+xml">Atom feed</a></p>
        {{>change-night}}

        """#,
        "change-night": #"""
        <p class="summary">{{summary}}</p>
        {{#hasJoiners}}
        <h3>Joined</h3>
        <ul class="changes">
        {{#joiners}}
        <li>{{#href}}<a href="{{href}}">{{name}}</a>{{/href}}{{^href}}{{name}}{{/href}}{{#jobTitle}}, {{jobTitle}}{{/jobTitle}}{{#department}}, {{department}}{{/department}}</li>
        {{/joiners}}
        </ul>
        {{/hasJoiners}}
        {{#hasLeavers}}
        <h3>Left</h3>
        <ul class="changes">
        {{#leavers}}
        <li>{{#href}}<a href="{{href}}">{{name}}</a>{{/href}}{{^href}}{{name}}{{/href}}{{#jobTitle}}, {{jobTitle}}{{/jobTitle}}{{#department}}, {{department}}{{/department}}</li>
        {{/leavers}}
        </ul>
        {{/hasLeavers}}
        {{#hasMoved}}
        <h3>Moved</h3>
        <ul class="changes">
        {{#moved}}
        <li>{{#href}}<a href="{{href}}">{{name}}</a>{{/href}}{{^href}}{{name}}{{/href}}
        <ul class="fields">
        {{#fields}}
        <li{{#move}} class="move"{{/move}}>{{#move}}<strong>{{label}}</strong>{{/move}}{{^move}}{{label}}{{/move}}: {{from}} → {{to}}</li>
        {{/fields}}
        </ul></li>
        {{/moved}}
        </ul>
        {{/hasMoved}}
        {{#hasChanged}}
        <h3>Changed</h3>
        <ul class="changes">
        {{#changed}}
        <li>{{#href}}<a href="{{href}}">{{name}}</a>{{/href}}{{^href}}{{name}}{{/href}}
        <ul class="fields">
        {{#fields}}
        <li>{{label}}: {{from}} → {{to}}</li>
        {{/fields}}
        </ul></li>
        {{/changed}}
        </ul>
        {{/hasChanged}}

        """#,
        "changes": #"""
        <h1>What changed</h1>
        <p>Who joined, who left and who moved, as each run found it, newest first, for as long as the snapshots are kept. <a href="{{root}}changes.atom" type="application/atom+xml">Subscribe to the Atom feed</a>.</p>
        {{^hasNights}}
        <p>No changes recorded yet: they appear here from the second run on.</p>
        {{/hasNights}}
        {{#nights}}
        <section class="night">
        <h2><a href="{{root}}{{file}}"><time datetime="{{dateISO}}">{{dateDisplay}}</time></a></h2>
        {{>change-night}}
        {{#more}}
        <p class="more"><a href="{{root}}{{file}}">All changes of this run</a> ({{more}} more than listed here)</p>
        {{/more}}
        </section>
        {{/nights}}

        """#,
        "changes.atom": #"""
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
        <id>{{feedID}}</id>
        <title>{{title}}: what changed</title>
        <updated>{{updated}}</updated>
        <author><name>{{title}}</name></author>
        <generator>orgdir</generator>
        <link rel="self" type="application/atom+xml" href="changes.atom"/>
        <link rel="alternate" type="text/html" href="changes.html"/>
        {{#entries}}
        <entry>
        <id>{{id}}</id>
        <title>{{entryTitle}}</title>
        <updated>{{updated}}</updated>
        <link rel="alternate" type="text/html" href="{{href}}"/>
        <content type="text">{{text}}</content>
        </entry>
        {{/entries}}
        </feed>

        """#,
        "department": #"""
        <h1>{{name}}</h1>
        <p class="count">{{count}} people</p>
        {{>pager}}
        <ul class="people">
        {{#people}}
        {{>person-row}}
        {{/people}}
        </ul>
        {{>pager}}

        """#,
        "departments": #"""
        <h1>Departments</h1>
        <ul class="departments">
        {{#departments}}
        <li><a href="departments/{{file}}">{{name}}</a> <span class="count">{{count}}</span></li>
        {{/departments}}
        </ul>
        {{#unassigned}}
        <p>{{unassigned}} people have no department.</p>
        {{/unassigned}}

        """#,
        "index": #"""
        <h1>{{title}}</h1>
        <section class="search" aria-labelledby="search-label">
        <form id="search-form" role="search" action="index.html" method="get">
        <label id="search-label" for="search-input">Search by name, title, department, office, mail or phone number</label>
        <input id="search-input" name="q" type="search" autocomplete="off" spellcheck="false" aria-describedby="search-hint" aria-controls="search-results">
        </form>
        <p id="search-hint" class="hint">Press <kbd>/</kbd> to search, arrow keys to move through the results, <kbd>Enter</kbd> to open.</p>
        <p id="search-status" class="status" role="status" aria-live="polite" aria-atomic="true"></p>
        <ul id="search-results" class="people results" aria-label="Search results" hidden></ul>
        <p id="search-more" hidden><button type="button" id="search-more-button">Show more</button></p>
        </section>
        <noscript><p>Search needs JavaScript. Browse the <a href="browse/index.html">people A–Z</a> or the <a href="departments.html">departments</a>.</p></noscript>
        <section id="everyone" aria-labelledby="everyone-heading">
        <h2 id="everyone-heading">{{#listed}}Everyone{{/listed}}{{^listed}}Browse{{/listed}} ({{count}} people)</h2>
        {{>letters}}
        {{#listed}}
        <ul class="people">
        {{#people}}
        {{>person-row}}
        {{/people}}
        </ul>
        {{/listed}}
        {{^listed}}
        <p>Too many people to list on one page: search above, or browse by <a href="browse/index.html">surname</a> or <a href="departments.html">department</a>.</p>
        {{/listed}}
        </section>

        """#,
        "layout": #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'">
        <meta name="referrer" content="no-referrer">
        <meta name="generator" content="orgdir">
        <title>{{pageTitle}} · {{title}}</title>
        <link rel="stylesheet" href="{{root}}assets/site.css">
        <link rel="alternate" type="application/atom+xml" title="{{title}}: what changed" href="{{root}}changes.atom">
        {{#scripts}}
        <script src="{{root}}{{src}}" defer></script>
        {{/scripts}}
        </head>
        <body class="{{pageKind}}">
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="site-header">
        <a class="site-title" href="{{root}}index.html">{{title}}</a>
        <nav aria-label="Site">
        <ul>
        <li><a href="{{root}}index.html">Search</a></li>
        <li><a href="{{root}}browse/index.html">People A–Z</a></li>
        <li><a href="{{root}}departments.html">Departments</a></li>
        <li><a href="{{root}}changes.html">What changed</a></li>
        </ul>
        </nav>
        {{^isIndex}}
        <form class="header-search" role="search" action="{{root}}index.html" method="get">
        <label for="header-q" class="visually-hidden">Search people</label>
        <input id="header-q" name="q" type="search" placeholder="Search people" autocomplete="off">
        <button type="submit">Search</button>
        </form>
        {{/isIndex}}
        </header>
        <main id="main" tabindex="-1">
        {{{content}}}
        </main>
        <footer class="site-footer">
        <p>Data as of <time datetime="{{generatedAtISO}}">{{generatedAt}}</time>.{{#hasExports}} Download everyone:{{#exports}} <a href="{{root}}{{file}}" download>{{label}}</a>{{/exports}}{{/hasExports}}</p>
        </footer>
        </body>
        </html>

        """#,
        "letter": #"""
        <h1>People: {{label}}</h1>
        {{>letters}}
        {{>pager}}
        <ul class="people">
        {{#people}}
        {{>person-row}}
        {{/people}}
        </ul>
        {{>pager}}

        """#,
        "letters": #"""
        <nav class="letters" aria-label="Surnames A–Z">
        <ul>
        {{#letters}}
        <li><a href="{{root}}browse/{{file}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>
        {{/letters}}
        </ul>
        </nav>

        """#,
        "pager": #"""
        {{#hasPages}}
        <nav class="pager" aria-label="Pages">
        <ul>
        {{#pages}}
        <li><a href="{{file}}"{{#current}} aria-current="page"{{/current}}>{{number}}</a></li>
        {{/pages}}
        </ul>
        </nav>
        {{/hasPages}}

        """#,
        "person": #"""
        <article class="person-page">
        {{{markdownHTML}}}
        </article>
        <aside class="person-links" aria-label="This page as">
        <ul>
        <li><a href="{{vcardHref}}" download>Add to contacts (vCard)</a></li>
        <li><a href="{{markdownHref}}">Markdown</a></li>
        </ul>
        </aside>

        """#,
        "person-row": #"""
        <li class="person"><a class="name" href="{{root}}people/{{slug}}.html">{{name}}</a>{{#jobTitle}} <span class="job">{{jobTitle}}</span>{{/jobTitle}}{{#department}} <span class="dept">{{department}}</span>{{/department}}{{#phone}} {{#phoneHref}}<a class="phone" href="{{phoneHref}}">{{phone}}</a>{{/phoneHref}}{{^phoneHref}}<span class="phone">{{phone}}</span>{{/phoneHref}}{{/phone}}{{#mail}} <a class="mail" href="{{mailHref}}">{{mail}}</a>{{/mail}}</li>

        """#,
        "person.md": #"""
        # {{name}}

        {{#jobTitle}}
        **{{jobTitle}}**

        {{/jobTitle}}
        {{#department}}
        - Department: [{{department}}]({{departmentHref}})
        {{/department}}
        {{#office}}
        - Office: {{office}}
        {{/office}}
        {{#company}}
        - Company: {{company}}
        {{/company}}
        {{#mail}}
        - Mail: [{{mail}}]({{mailHref}})
        {{/mail}}
        {{#phones}}
        - {{label}}: {{#href}}[{{number}}]({{href}}){{/href}}{{^href}}{{number}}{{/href}}
        {{/phones}}
        {{#manager}}
        - Manager: {{#href}}[{{name}}]({{href}}){{/href}}{{^href}}{{name}}{{/href}}
        {{/manager}}
        {{#extra}}
        - {{label}}: {{value}}
        {{/extra}}
        {{#hasReports}}

        ## Direct reports

        {{#reports}}
        - [{{name}}]({{href}}){{#jobTitle}}, {{jobTitle}}{{/jobTitle}}
        {{/reports}}
        {{/hasReports}}
        {{#hasHistory}}

        ## History

        {{#history}}
        - {{#move}}**{{label}}**{{/move}}{{^move}}{{label}}{{/move}}{{#hasChange}}: {{from}} → {{to}}{{/hasChange}}, [{{day}}]({{nightHref}})
        {{/history}}
        {{/hasHistory}}

        [Download vCard]({{vcardHref}})

        Data as of {{generatedAt}}.

        """#,
    ]
}
