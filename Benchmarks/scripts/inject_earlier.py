# Adds N ids in 80 lines of dates to the `earlier` lines of a history.jsonl (its header counts them): the history of
# a site kept under retention for months, for Benchmarks/earlier-nights.sh.
#   python3 Benchmarks/scripts/inject_earlier.py STATE/history.jsonl N
import json, sys, datetime
path, n = sys.argv[1], int(sys.argv[2])
lines = open(path, 'rb').read().split(b'\n')
lines = [l for l in lines if l]
header = json.loads(lines[0])
old = header.get('earlier', 0)
groups = 80
base = datetime.datetime(2025, 1, 1, 2, 0, 0)
new_lines = []
per = n // groups
for g in range(groups):
    date = (base + datetime.timedelta(days=g)).strftime('%Y-%m-%dT%H:%M:%SZ')
    ids = sorted(f"ffffffff-0000-0000-0000-{g:04d}{i:08d}" for i in range(per))
    new_lines.append(json.dumps([date] + ids, separators=(',', ':')).encode())
header['earlier'] = old + groups
body = lines[1:]
out = [json.dumps(header, separators=(',', ':'), sort_keys=True).encode()] + body[:len(body)-old] + new_lines + body[len(body)-old:]
open(path, 'wb').write(b'\n'.join(out) + b'\n')
print('injected', per * groups, 'ids in', groups, 'lines; header', header)
