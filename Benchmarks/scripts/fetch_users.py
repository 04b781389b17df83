#!/usr/bin/env python3
"""Pages through a graph-sandbox tenant the way any Graph client would and writes the benchmark data.

Signs in with client credentials, follows @odata.nextLink through GET /v1.0/users, and writes one JSON
array (lower-case keys, because Hugo lower-cases parameter keys) that the Hugo content adapter reads.
Standard library only, so `make bench` needs nothing but python3.
"""
import argparse
import json
import re
import sys
import unicodedata
import urllib.parse
import urllib.request

FIELDS = [
    "id", "userPrincipalName", "displayName", "givenName", "surname", "mail", "businessPhones",
    "mobilePhone", "jobTitle", "department", "officeLocation", "companyName", "employeeId",
]


def token(base, tenant, client_id, secret):
    """Client-credentials sign-in at the sandbox's identity endpoint."""
    form = urllib.parse.urlencode({
        "client_id": client_id, "client_secret": secret, "grant_type": "client_credentials",
        "scope": base.rstrip("/") + "/.default",
    }).encode()
    request = urllib.request.Request(f"{base.rstrip('/')}/{tenant}/oauth2/v2.0/token", data=form, method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)["access_token"]


def users(base, access_token, top):
    """Every user, page by page."""
    query = urllib.parse.urlencode({"$select": ",".join(FIELDS), "$top": str(top)}, safe="$,")
    url = f"{base.rstrip('/')}/v1.0/users?{query}"
    pages = 0
    while url:
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {access_token}"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            page = json.load(answer)
        pages += 1
        yield from page.get("value", [])
        url = page.get("@odata.nextLink")
    print(f"fetch_users: {pages} pages", file=sys.stderr)


def slug(name, object_id):
    """A file name in the spirit of orgdir's: folded ASCII name plus six characters of the id."""
    folded = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode().lower()
    readable = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")[:48].strip("-") or "person"
    return f"{readable}-{re.sub(r'[^0-9a-f]', '', object_id.lower())[:6]}"


def flatten(user):
    """The person as the Hugo templates read it."""
    phones = [p for p in (user.get("businessPhones") or []) if p]
    return {
        "id": user["id"],
        "slug": slug(user.get("displayName"), user["id"]),
        "name": user.get("displayName") or user.get("userPrincipalName") or user["id"],
        "given": user.get("givenName") or "",
        "surname": user.get("surname") or "",
        "upn": user.get("userPrincipalName") or "",
        "mail": user.get("mail") or "",
        "phones": phones,
        "mobile": user.get("mobilePhone") or "",
        "title": user.get("jobTitle") or "",
        "department": user.get("department") or "",
        "office": user.get("officeLocation") or "",
        "company": user.get("companyName") or "",
        "employeeid": user.get("employeeId") or "",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", required=True, help="the sandbox's base URL")
    parser.add_argument("--tenant", default="contoso")
    parser.add_argument("--client-id", default="11111111-2222-3333-4444-555555555555")
    parser.add_argument("--secret", default="sandbox-secret")
    parser.add_argument("--top", type=int, default=999)
    parser.add_argument("--out", required=True, help="where to write the users JSON")
    arguments = parser.parse_args()
    access_token = token(arguments.base, arguments.tenant, arguments.client_id, arguments.secret)
    people = [flatten(user) for user in users(arguments.base, access_token, arguments.top)]
    seen = {}
    for person in people:  # two people with one slug would make Hugo drop a page
        count = seen.get(person["slug"], 0)
        seen[person["slug"]] = count + 1
        if count:
            person["slug"] += f"-{count + 1}"
    people.sort(key=lambda person: (person["surname"].lower(), person["given"].lower(), person["id"]))
    with open(arguments.out, "w", encoding="utf-8") as out:
        json.dump(people, out, ensure_ascii=False, separators=(",", ":"))
    print(f"fetch_users: {len(people)} people -> {arguments.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
