# Times one delta round against the sandbox as orgdir fetches it: a token by client credentials, then the saved
# deltaLink's pages in turn. Usage: python3 Benchmarks/scripts/delta_round_time.py SANDBOX_URL STATE_FOLDER
import json, sys, time, urllib.request, urllib.parse
base, state = sys.argv[1], sys.argv[2]
link = json.load(open(state + "/delta.json"))["deltaLink"]
body = urllib.parse.urlencode({"client_id": "11111111-2222-3333-4444-555555555555", "client_secret": "sandbox-secret",
    "scope": base + "/.default", "grant_type": "client_credentials"}).encode()
t0 = time.monotonic()
token = json.load(urllib.request.urlopen(base + "/contoso/oauth2/v2.0/token", body))["access_token"]
t1 = time.monotonic()
pages = 0; url = link; size = 0
while url:
    req = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
    data = urllib.request.urlopen(req).read(); size += len(data)
    page = json.loads(data); pages += 1
    url = page.get("@odata.nextLink")
t2 = time.monotonic()
print(f"token {1000*(t1-t0):.1f} ms, delta round {1000*(t2-t1):.1f} ms in {pages} pages, {size/1e6:.1f} MB")
