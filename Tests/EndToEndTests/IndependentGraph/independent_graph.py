#!/usr/bin/env python3
"""A second Graph for the end-to-end tests, written from /work/shared/graph-facts.md rather than from our sandbox.

The sandbox and orgdir were written by the same hands, so a habit of one can hide in the other. This server keeps to
the documented protocol but chooses differently wherever the documents leave it free:
- responses are gzip-compressed when the client accepts it and sent chunked, with Graph's long OData content type,
  headers and body in separate `send`s: on a kept-alive connection each response then waits some 40 ms for the
  client's delayed acknowledgement (Nagle), as simple servers' do;
- pages are smaller than `$top` asks (137 people at most); a listing's skip tokens are percent-encoded `X'…'` as
  Graph's are, refused unless sent back exactly so, and delta tokens are opaque base64;
- `$top` outside 1-999 is a 400, `/users/$count` without `ConsistencyLevel: eventual` a 400;
- the second page of a full listing answers 429 once, with a fractional `Retry-After`, and the first delta page after
  a deltaLink 503 once;
- an expired delta token (after `POST /_control/expire`) is a 410 `syncStateNotFound`, until the next
  `$deltatoken=latest`;
- a delta round carries changed users as Graph does by default (their selected properties, those never set left
  out, a cleared one as null) and removed ones as `{"id": ..., "@removed": {"reason": "changed"}}`;
- `$filter` on /users takes `eq` and `startswith` joined by `and` or `or` (anything else is a 400), and on delta
  only `id eq`, as Graph's delta does;
- sign-in takes a client secret, a certificate's assertion (checked with openssl: PS256 with a 32-byte salt and
  `x5t#S256`, or RS256 with `x5t`; `aud` the token endpoint, `iss` = `sub` = the client id), a federated token from a
  trusted issuer (RS256, `aud` api://AzureADTokenExchange), a device code a test approves, or a browser's
  authorization code (redirect to http://localhost:PORT, PKCE S256 checked when the code is redeemed); refresh tokens come only with `offline_access` and rotate, a redeemed one refused as `invalid_grant`;
  a public client's grant carrying a secret is refused;
- names are hostile: markup, quotes, ampersands, accents, CJK;
- a manager comes with `$expand=manager(...)` (no key for someone without one); delta refuses `$expand` and tells a
  changed manager as `manager@delta` (ids only, empty when the manager left) but says nothing of a joiner's, which
  `/users/{id}/manager` (404 without one) answers.

Prints its base URL on the first line of stdout. Test control, outside Graph's paths:
- `POST /_control/churn?count=N` changes N people (a join, a soft delete, a new title, a cleared mobile phone, a new
  manager, a move to another department, in turn);
- `GET /_control/people` returns `{"id": {"displayName": ..., "jobTitle": ..., "mobilePhone": ..., "department": ...,
  "manager": the manager's display name}}` for everyone there now;
- `GET /_control/requests` returns the method, path, status and client port of every response so far;
- `GET /_control/devicecodes` lists the user codes waiting, `POST /_control/approve?user_code=C` approves one, and
  `GET /_control/issued` lists every credential handed out (for the tests' leak checks).

    python3 independent_graph.py [--people N] [--seed S] [--secret SECRET] [--certificate cert.pem]
        [--federated-key issuer.pem --federated-issuer URL]
"""
import argparse
import base64
import gzip
import hashlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEFAULT_PROPERTIES = ["businessPhones", "displayName", "givenName", "id", "jobTitle", "mail", "mobilePhone",
                      "officeLocation", "preferredLanguage", "surname", "userPrincipalName"]
GIVEN = ["Ada", "Zoë", "José", "Ngozi", "李", "Åsa", "Seán", "<script>alert(1)</script>", "Émile", "Björk"]
FAMILY = ["Lovelace", "Núñez", "O'Brien", "Kowalski", "王", "Ørsted", "D'Arcy", "Smith & Sons", "Müller", "\"Doe\""]
DEPARTMENTS = ["Sales", "R&D", "Finance", "IT", None, "Support & Care"]
TITLES = ["Engineer", "Manager", None, "VP, Sales", "<b>Chief</b>"]
CONTENT_TYPE = "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8"


class Tenant:
    """The people, and a log of changes numbered by version for delta rounds."""

    def __init__(self, count, seed):
        self.random = random.Random(seed)
        self.people = {}
        self.managers = {}  # id -> the manager's id, or None
        self.added = []  # every id in the order added (a manager is picked among them; one who left is no manager)
        self.version = 0
        self.changes = []  # (version, id, changed property names or None for a removal)
        self.lock = threading.Lock()
        self.requests = []
        self.throttled = False
        self.delta_unavailable_once = True  # the first delta page after a deltaLink answers 503 once
        self.tokens_expired = False
        for number in range(count):
            self.add(number)

    def add(self, number):
        given, family = self.random.choice(GIVEN), self.random.choice(FAMILY)
        person = {
            "id": str(uuid.UUID(int=self.random.getrandbits(128), version=4)),
            "userPrincipalName": f"person{number}@contoso.onmicrosoft.com",
            "displayName": f"{given} {family}", "givenName": given, "surname": family,
            "mail": f"person{number}@contoso.com" if number % 7 else None,
            "businessPhones": [f"+1 425 555 {number % 10000:04d}"] if number % 3 else [],
            "mobilePhone": f"+44 7700 900{number % 1000:03d}" if number % 2 else None,
            "jobTitle": self.random.choice(TITLES), "department": self.random.choice(DEPARTMENTS),
            "officeLocation": self.random.choice(["18/2111", None, "Oslo"]), "companyName": None,
            "accountEnabled": True, "userType": "Member", "employeeId": None, "preferredLanguage": "en-US",
        }
        # A manager among those already there (not a property: `$expand=manager` or `manager@delta` tell it).
        self.managers[person["id"]] = self.random.choice(self.added) if len(self.added) > 5 else None
        self.people[person["id"]] = person
        self.added.append(person["id"])
        return person

    def churn(self, count):
        ids = sorted(self.people)
        for step in range(count):
            self.version += 1
            kind = step % 6
            if kind == 0:
                person = self.add(100000 + self.version)
                self.changes.append((self.version, person["id"], list(person)))
                continue
            victim = ids[self.random.randrange(len(ids))]
            if victim not in self.people:
                continue
            if kind == 1:
                del self.people[victim]
                self.changes.append((self.version, victim, None))
                # Their reports have no manager now: a relationship change delta reports as `manager@delta`.
                for report, manager in self.managers.items():
                    if manager == victim and report in self.people:
                        self.managers[report] = None
                        self.changes.append((self.version, report, ["manager"]))
            elif kind == 2:
                self.people[victim]["jobTitle"] = f"Changed in version {self.version}"
                self.changes.append((self.version, victim, ["jobTitle"]))
            elif kind == 3:
                self.people[victim]["mobilePhone"] = None
                self.changes.append((self.version, victim, ["mobilePhone"]))
            elif kind == 5:
                self.people[victim]["department"] = self.random.choice(DEPARTMENTS)
                self.changes.append((self.version, victim, ["department"]))
            else:
                candidates = [i for i in ids if i in self.people and i != victim]
                self.managers[victim] = self.random.choice(candidates)
                self.changes.append((self.version, victim, ["manager"]))

    def sorted_ids(self):
        """Everyone's id in order, sorted again only after a change (a listing pages through it)."""
        if getattr(self, "_sorted", (None, None))[0] != (self.version, len(self.people)):
            self._sorted = ((self.version, len(self.people)), sorted(self.people))
        return self._sorted[1]

    def manager_object(self, person_id):
        manager = self.managers.get(person_id)
        if manager is None or manager not in self.people:
            return None
        return {"@odata.type": "#microsoft.graph.user", "id": manager,
                "displayName": self.people[manager]["displayName"]}


class UnsupportedFilter(Exception):
    pass


def matches(person, text):
    """Whether `person` passes a `$filter` of the forms Graph's /users takes without advanced queries, joined by
    `and` or `or` (no parentheses): `prop eq 'text'`, `prop eq true|false|null`, `startswith(prop,'text')`."""
    def clause(part):
        part = part.strip()
        if part.startswith("startswith(") and part.endswith(")"):
            name, _, literal = part[len("startswith("):-1].partition(",")
            value = person.get(name.strip())
            wanted = literal.strip()
            if not (wanted.startswith("'") and wanted.endswith("'")):
                raise UnsupportedFilter(part)
            return isinstance(value, str) and value.lower().startswith(wanted[1:-1].replace("''", "'").lower())
        name, operator, literal = part.split(" ", 2) if part.count(" ") >= 2 else (part, "", "")
        if operator != "eq":
            raise UnsupportedFilter(part)
        value = person.get(name)
        if literal.startswith("'") and literal.endswith("'"):
            # Directory strings compare without regard to case.
            return isinstance(value, str) and value.lower() == literal[1:-1].replace("''", "'").lower()
        return value == {"true": True, "false": False, "null": None}.get(literal, UnsupportedFilter)
    if " or " in text:
        return any(clause(part) for part in text.split(" or "))
    return all(clause(part) for part in text.split(" and "))


class Identity:
    """The identity platform's v2.0 token and device code endpoints for one app: a client secret, a certificate whose
    assertions are verified with the openssl command line (PS256 with a 32-byte salt and `x5t#S256`, or RS256 with
    `x5t`), device codes a test approves, and refresh tokens that rotate: a redeemed one is refused."""

    JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code"

    FEDERATED_AUDIENCE = "api://AzureADTokenExchange"

    def __init__(self, secret, certificate, federated_key=None, federated_issuer=None):
        self.secret = secret
        self.federated_key, self.federated_issuer = federated_key, federated_issuer
        self.codes = {}  # authorization code -> {"challenge", "redirect_uri", "scope"}
        self.folder = tempfile.mkdtemp(prefix="independent-identity-")
        self.public_key = self.thumbprints = None
        if certificate:
            self.public_key = os.path.join(self.folder, "public.pem")
            self.openssl(["x509", "-in", certificate, "-pubkey", "-noout", "-out", self.public_key])
            der = self.openssl(["x509", "-in", certificate, "-outform", "DER"])
            self.thumbprints = {"x5t#S256": b64url(hashlib.sha256(der).digest()),
                                "x5t": b64url(hashlib.sha1(der).digest())}
        self.device_codes = {}  # device_code -> {"user_code", "approved", "scope"}
        self.refresh_tokens = {}  # live refresh token -> scope
        self.redeemed = set()
        self.issued = []  # every credential handed out, for the tests' leak checks

    @staticmethod
    def openssl(arguments, data=None):
        return subprocess.run(["openssl"] + arguments, input=data, capture_output=True, check=True).stdout

    def new(self, prefix):
        value = prefix + secrets.token_urlsafe(24)
        self.issued.append(value)
        return value

    def tokens(self, scope):
        """A token response for `scope`: a refresh token only when `offline_access` was asked for."""
        body = {"token_type": "Bearer", "scope": scope, "expires_in": 3599, "ext_expires_in": 3599,
                "access_token": "eyJ0eXAiOiJKV1QiLCJhbGciOiJub25lIn0." + encode_token(
                    {"aud": "https://graph.microsoft.com", "jti": self.new("")}) + "."}
        if "offline_access" in scope.split():
            refresh = self.new("rt-")
            self.refresh_tokens[refresh] = scope
            body["refresh_token"] = refresh
            body["id_token"] = "eyJ0eXAiOiJKV1QiLCJhbGciOiJub25lIn0." + encode_token({}) + "."
        return body

    def assertion_error(self, assertion, client_id, audience):
        """Why a client assertion is refused, or None when it is good: a certificate's, or a token from the trusted
        federated issuer (RS256, `aud` api://AzureADTokenExchange)."""
        try:
            header_text, payload_text, signature_text = assertion.split(".")
            header = decode_token(header_text)
            claims = decode_token(payload_text)
        except ValueError:
            return "the assertion is not a JWT"
        if self.federated_issuer and claims.get("iss") == self.federated_issuer:
            if header.get("alg") != "RS256" or claims.get("aud") != self.FEDERATED_AUDIENCE:
                return "the federated token's alg or aud is wrong"
            if not claims.get("exp", 0) > time.time():
                return "the federated token has expired"
            return self.signature_error(header_text, payload_text, signature_text, self.federated_key, [])
        if not self.public_key:
            return "no certificate is registered for the app"
        algorithm = header.get("alg")
        thumbprint_key = {"PS256": "x5t#S256", "RS256": "x5t"}.get(algorithm)
        if thumbprint_key is None:
            return f"unsupported alg {algorithm}"
        if header.get(thumbprint_key) != self.thumbprints[thumbprint_key] and \
                header.get("x5t#S256") != self.thumbprints["x5t#S256"]:
            return "no certificate with that thumbprint"
        if claims.get("aud") != audience or claims.get("iss") != client_id or claims.get("sub") != client_id:
            return f"aud, iss or sub wrong: {claims.get('aud')} {claims.get('iss')} {claims.get('sub')}"
        now = time.time()
        if not claims.get("jti") or not (claims.get("nbf", now) - 300 <= now <= claims.get("exp", 0)) or \
                claims["exp"] - claims.get("nbf", claims["exp"]) > 3600:
            return "jti missing or the assertion is not valid now"
        options = ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32"] if algorithm == "PS256" else []
        return self.signature_error(header_text, payload_text, signature_text, self.public_key, options)

    def signature_error(self, header_text, payload_text, signature_text, public_key, options):
        """None when `signature_text` signs `header.payload` with SHA-256 under `public_key` (openssl dgst)."""
        signature = os.path.join(self.folder, secrets.token_hex(8))
        with open(signature, "wb") as file:
            file.write(b64url_decode(signature_text))
        try:
            self.openssl(["dgst", "-sha256", "-verify", public_key, "-signature", signature] + options,
                         f"{header_text}.{payload_text}".encode())
        except subprocess.CalledProcessError:
            return "signature validation failed"
        finally:
            os.remove(signature)
        return None

    def authorize(self, query):
        """The code for an authorization request a person has (at once) approved, or why it is refused."""
        if query.get("response_type") != "code" or query.get("code_challenge_method") != "S256" or \
                not query.get("code_challenge"):
            return None, "response_type code with an S256 code_challenge is required"
        redirect = query.get("redirect_uri", "")
        if not redirect.startswith("http://localhost:"):
            return None, f"the redirect URI '{redirect}' is not registered (http://localhost)"
        code = self.new("ac-")
        self.codes[code] = {"challenge": query["code_challenge"], "redirect_uri": redirect,
                            "scope": query.get("scope", "")}
        return code, None

    def redeem(self, code, redirect_uri, verifier):
        """The scope of an authorization code redeemed with its PKCE verifier, or None with why."""
        entry = self.codes.pop(code, None)
        if entry is None:
            return None, "the code was redeemed already or never issued"
        if entry["redirect_uri"] != redirect_uri:
            return None, "the redirect_uri differs from the authorization request's"
        if b64url(hashlib.sha256(verifier.encode()).digest()) != entry["challenge"]:
            return None, "the code_verifier does not match the code_challenge"
        return entry["scope"], None


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_token(value):
    """`value` as JSON in base64url: this server's opaque tokens, and the parts of an unsigned JWT."""
    return b64url(json.dumps(value).encode())


def decode_token(text):
    return json.loads(b64url_decode(text))


def handler_for(tenant, identity):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *arguments):
            pass

        def send_body(self, status, body, content_type, headers=()):
            tenant.requests.append((self.command, urllib.parse.urlsplit(self.path).path, status,
                                    self.client_address[1]))
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            for name, value in headers:
                self.send_header(name, value)
            if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                body = gzip.compress(body)
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(body), 4096):
                piece = body[start:start + 4096]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")

        def send_json(self, status, value, headers=()):
            self.send_body(status, json.dumps(value, ensure_ascii=False).encode(), CONTENT_TYPE, headers)

        def graph_error(self, status, code, message, headers=()):
            inner = {"date": "2026-11-29T00:00:00", "request-id": str(uuid.uuid4()),
                     "client-request-id": self.headers.get("client-request-id", "")}
            self.send_json(status, {"error": {"code": code, "message": message, "innerError": inner}}, headers)

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length).decode()
            if url.path == "/_control/expire":
                tenant.tokens_expired = True
                return self.send_json(200, {})
            if url.path == "/_control/churn":
                count = int(urllib.parse.parse_qs(url.query).get("count", ["1"])[0])
                with tenant.lock:
                    tenant.churn(count)
                return self.send_json(200, {"version": tenant.version})
            if url.path == "/_control/approve":
                code = urllib.parse.parse_qs(url.query).get("user_code", [""])[0]
                approved = [entry for entry in identity.device_codes.values() if entry["user_code"] == code]
                for entry in approved:
                    entry["approved"] = True
                return self.send_json(200 if approved else 404, {"approved": len(approved)})
            form = urllib.parse.parse_qs(body)
            field = lambda name: form.get(name, [""])[0]
            if url.path.endswith("/oauth2/v2.0/devicecode"):
                return self.device_code(field)
            if not url.path.endswith("/oauth2/v2.0/token"):
                return self.graph_error(404, "Request_ResourceNotFound", "Resource not found.")
            grant = field("grant_type")
            if grant == "client_credentials":
                return self.client_credentials(field, url.path)
            if field("client_secret") or field("client_assertion"):
                return self.identity_error(401, "invalid_client", 700025,
                                           "Client is public so neither 'client_assertion' nor 'client_secret' "
                                           "should be presented.")
            if grant == Identity.DEVICE_CODE:
                entry = identity.device_codes.get(field("device_code"))
                if entry is None:
                    return self.identity_error(400, "bad_verification_code", 70019, "Verification code expired.")
                if not entry["approved"]:
                    return self.identity_error(400, "authorization_pending", 70016,
                                               "Authorization is pending. Continue polling.")
                del identity.device_codes[field("device_code")]
                return self.send_json(200, identity.tokens(entry["scope"]))
            if grant == "authorization_code":
                scope, why = identity.redeem(field("code"), field("redirect_uri"), field("code_verifier"))
                if why:
                    return self.identity_error(400, "invalid_grant", 501481, why + ".")
                return self.send_json(200, identity.tokens(scope))
            if grant == "refresh_token":
                token = field("refresh_token")
                scope = identity.refresh_tokens.pop(token, None)
                if scope is None:
                    reason = "The provided grant has been used" if token in identity.redeemed else "Invalid grant"
                    return self.identity_error(400, "invalid_grant", 70000, reason + ".")
                identity.redeemed.add(token)
                return self.send_json(200, identity.tokens(field("scope") or scope))
            return self.identity_error(400, "unsupported_grant_type", 70003, f"The grant type '{grant}' is not "
                                       "supported.")

        def identity_error(self, status, error, code, text):
            self.send_json(status, {"error": error, "error_codes": [code], "timestamp": "2026-11-29 00:00:00Z",
                                    "error_description": f"AADSTS{code}: {text}"})

        def client_credentials(self, field, path):
            scope = field("scope")
            if not scope.endswith("/.default") or " " in scope:
                return self.identity_error(400, "invalid_scope", 70011, f"The provided value '{scope}' for the "
                                           "input parameter 'scope' is not valid.")
            if field("client_assertion_type") == Identity.JWT_BEARER:
                audience = self.base() + path
                why = identity.assertion_error(field("client_assertion"), field("client_id"), audience)
                if why:
                    return self.identity_error(401, "invalid_client", 700027,
                                               f"Client assertion failed signature validation ({why}).")
            elif field("client_secret") != identity.secret:
                return self.identity_error(401, "invalid_client", 7000215, "Invalid client secret provided.")
            self.send_json(200, identity.tokens(scope))

        def device_code(self, field):
            scope = field("scope")
            if not scope:
                return self.identity_error(400, "invalid_request", 900144, "The request body must contain the "
                                           "following parameter: 'scope'.")
            user_code = "".join(random.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(9))
            device_code = identity.new("dc-")
            identity.device_codes[device_code] = {"user_code": user_code, "approved": False, "scope": scope}
            self.send_json(200, {
                "user_code": user_code, "device_code": device_code,
                "verification_uri": "https://microsoft.com/devicelogin", "expires_in": 900, "interval": 1,
                "message": "To sign in, use a web browser to open the page https://microsoft.com/devicelogin and "
                           f"enter the code {user_code} to authenticate."})

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
            with tenant.lock:
                if url.path == "/_control/people":
                    shown = ["displayName", "jobTitle", "mobilePhone", "department"]
                    return self.send_json(200, {
                        i: {**{name: p[name] for name in shown},
                            "manager": (tenant.manager_object(i) or {}).get("displayName")}
                        for i, p in tenant.people.items()})
                if url.path == "/_control/requests":
                    return self.send_json(200, [list(request) for request in tenant.requests])
                if url.path == "/_control/devicecodes":
                    return self.send_json(200, [entry["user_code"] for entry in identity.device_codes.values()])
                if url.path == "/_control/issued":
                    return self.send_json(200, identity.issued)
                if url.path.endswith("/oauth2/v2.0/authorize"):
                    code, why = identity.authorize(query)
                    if why:
                        return self.send_body(400, why.encode(), "text/plain")
                    location = query["redirect_uri"] + "?" + urllib.parse.urlencode(
                        {"code": code, "state": query.get("state", ""), "session_state": str(uuid.uuid4())})
                    return self.send_body(302, b"", "text/html", [("Location", location)])
                if not (self.headers.get("Authorization") or "").startswith("Bearer eyJ"):
                    return self.graph_error(401, "InvalidAuthenticationToken", "Access token is empty.")
                if url.path == "/v1.0/users/$count":
                    if self.headers.get("ConsistencyLevel") != "eventual":
                        return self.graph_error(400, "Request_BadRequest", "$count is not currently supported.")
                    counted = [p for p in tenant.people.values()
                               if not query.get("$filter") or matches(p, query["$filter"])]
                    return self.send_body(200, str(len(counted)).encode(), "text/plain")
                if url.path == "/v1.0/users":
                    return self.users(query, url.query)
                if url.path == "/v1.0/users/delta":
                    return self.delta(query)
                parts = url.path.split("/")
                if len(parts) in (4, 5) and parts[:3] == ["", "v1.0", "users"]:
                    return self.one_user(urllib.parse.unquote(parts[3]), parts[4] if len(parts) == 5 else None, query)
                return self.graph_error(404, "Request_ResourceNotFound", "Resource not found.")

        def base(self):
            return "http://" + self.headers["Host"]

        def shaped(self, person, select, changed=None, expand=None):
            """`person` with the selected properties (the default set without `$select`) and, with
            `$expand=manager(...)`, their manager (no key without one); a delta record of a change leaves out what was
            never set, keeps a property this change cleared as null, and tells a new manager as `manager@delta`."""
            names = select.split(",") if select else DEFAULT_PROPERTIES
            if changed is None:
                record = {name: person.get(name) for name in names if name in person}
                manager = tenant.manager_object(person["id"])
                if expand and expand.startswith("manager") and manager:
                    record["manager"] = manager
                return record
            record = {"id": person["id"]}
            for name in names:
                if name in person and (person[name] not in (None, []) or name in changed):
                    record[name] = person[name]
            if "manager" in names and "manager" in changed and "userPrincipalName" not in changed:
                manager = tenant.manager_object(person["id"])
                record["manager@delta"] = [{"@odata.type": "#microsoft.graph.user", "id": manager["id"]}] if manager else []
            return record

        def one_user(self, person_id, leaf, query):
            person = tenant.people.get(person_id)
            if person is None:
                return self.graph_error(404, "Request_ResourceNotFound",
                                        f"Resource '{person_id}' does not exist or one of its queried reference-property "
                                        "objects are not present.")
            if leaf == "manager":
                manager = tenant.manager_object(person_id)
                if manager is None:
                    return self.graph_error(404, "Request_ResourceNotFound",
                                            f"Resource 'manager' does not exist or one of its queried "
                                            "reference-property objects are not present.")
                return self.send_json(200, {"@odata.context": self.base() + "/v1.0/$metadata#directoryObjects/$entity",
                                            **manager})
            if leaf is not None:
                return self.graph_error(400, "BadRequest", f"Unsupported segment '{leaf}'.")
            return self.send_json(200, self.shaped(person, query.get("$select"), expand=query.get("$expand")))

        def users(self, query, raw_query):
            top = int(query.get("$top", "100"))
            if not 1 <= top <= 999:
                return self.graph_error(400, "Request_UnsupportedQuery",
                                        f"Invalid page size specified: '{top}'. Must be between 1 and 999 inclusive.")
            # Graph's skip tokens look like X'4453…' and come percent-encoded in the nextLink, which the client must
            # send as it is: a token that comes back decoded or encoded again is refused.
            offset = 0
            if "$skiptoken" in query:
                raw = next((part[len("$skiptoken="):] for part in raw_query.split("&")
                            if part.startswith("$skiptoken=")), "")
                if not (raw.startswith("X%27") and raw.endswith("%27")):
                    return self.graph_error(400, "Request_BadRequest", f"Invalid skip token '{raw}'.")
                offset = int(bytes.fromhex(raw[4:-3]).decode().split(":")[1])
            if offset > 0 and not tenant.throttled:
                tenant.throttled = True
                return self.graph_error(429, "TooManyRequests", "Too many requests.", [("Retry-After", "0.4")])
            size = min(top, 137)
            ids = tenant.sorted_ids()
            if query.get("$filter"):
                try:
                    ids = [i for i in ids if matches(tenant.people[i], query["$filter"])]
                except UnsupportedFilter as error:
                    return self.graph_error(400, "Request_UnsupportedQuery", f"Unsupported Query: {error}")
            page = [self.shaped(tenant.people[i], query.get("$select"), expand=query.get("$expand"))
                    for i in ids[offset:offset + size]]
            context = self.base() + "/v1.0/$metadata#users"
            if query.get("$select"):
                context += "(" + query["$select"] + ")"
            body = {"@odata.context": context, "value": page}
            if offset + size < len(ids):
                following = {name: value for name, value in query.items() if name != "$skiptoken"}
                token = ("RFNwdA:%d" % (offset + size)).encode().hex().upper()
                body["@odata.nextLink"] = (self.base() + "/v1.0/users?" + urllib.parse.urlencode(following, safe="$,()'")
                                           + "&$skiptoken=X%27" + token + "%27")
            self.send_json(200, body)

        def delta(self, query):
            context = self.base() + "/v1.0/$metadata#users"
            link = self.base() + "/v1.0/users/delta?"
            if "$filter" in query and not query["$filter"].startswith("id eq "):
                return self.graph_error(400, "Request_UnsupportedQuery", "Delta supports only id eq in $filter.")
            if "$expand" in query or "$top" in query or "$orderby" in query:
                return self.graph_error(400, "Request_UnsupportedQuery", "Unsupported query option on delta.")
            if query.get("$deltatoken") == "latest":
                tenant.tokens_expired = False
                token = encode_token({"since": tenant.version, "select": query.get("$select")})
                return self.send_json(200, {"@odata.context": context, "value": [],
                                            "@odata.deltaLink": link + "$deltatoken=" + token})
            if "$deltatoken" in query and tenant.tokens_expired:
                return self.graph_error(410, "syncStateNotFound",
                                        "The delta token has expired: synchronize the data again.")
            if "$deltatoken" in query and tenant.delta_unavailable_once:
                tenant.delta_unavailable_once = False
                return self.graph_error(503, "serviceNotAvailable", "The service is temporarily unavailable.",
                                        [("Retry-After", "0.3")])
            token = query.get("$deltatoken") or query.get("$skiptoken")
            state = decode_token(token) if token else {"since": None, "select": query.get("$select")}
            select, offset = state.get("select"), state.get("offset", 0)
            if state["since"] is None:
                # A first round: everyone, then a deltaLink for what follows (its pages' tokens say so).
                since = None
                records = [self.shaped(tenant.people[i], select) for i in tenant.sorted_ids()]
            else:
                since = state["since"]
                latest = {}
                for version, person_id, changed in tenant.changes:
                    if version > since:
                        names = set(latest.get(person_id) or []) | set(changed or [])
                        latest[person_id] = sorted(names) if changed is not None else None
                records = []
                selected = set(select.split(",")) if select else set(DEFAULT_PROPERTIES)
                for person_id, changed in latest.items():
                    if changed is not None and not selected & set(changed):
                        continue  # only changes to selected properties bring a user back
                    if person_id in tenant.people:
                        records.append(self.shaped(tenant.people[person_id], select, changed or []))
                    else:
                        records.append({"id": person_id, "@removed": {"reason": "changed"}})
            page = records[offset:offset + 50]
            body = {"@odata.context": context, "value": page}
            if offset + 50 < len(records):
                body["@odata.nextLink"] = link + "$skiptoken=" + encode_token(
                    {"since": since, "select": select, "offset": offset + 50})
            else:
                body["@odata.deltaLink"] = link + "$deltatoken=" + encode_token(
                    {"since": tenant.version, "select": select})
            self.send_json(200, body)

    return Handler


def end_with_parent():
    """Ends this server when SIGTERM comes or the process that started it is gone. A child inherits its starter's
    blocked signals (a Swift test process blocks SIGTERM), so SIGTERM is unblocked first."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def main():
    end_with_parent()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--secret", default="independent-secret")
    parser.add_argument("--certificate", help="a PEM certificate the app signs its assertions with")
    parser.add_argument("--federated-key", help="the public key (PEM) of a trusted federated token issuer")
    parser.add_argument("--federated-issuer", help="that issuer's `iss`")
    arguments = parser.parse_args()
    tenant = Tenant(arguments.people, arguments.seed)
    identity = Identity(arguments.secret, arguments.certificate, arguments.federated_key, arguments.federated_issuer)
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(tenant, identity))
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
