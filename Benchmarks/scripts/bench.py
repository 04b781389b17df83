#!/usr/bin/env python3
"""The orgdir benchmarks: orgdir against Hugo and a no-template floor writer on the same people.

Run through Benchmarks/run.sh (`make bench`), which installs what is missing, builds the release binaries
and the floor writer, and passes their paths in the environment. Everything here is standard library.

What one run does, for each size in BENCH_SIZES:
  1. starts graph-sandbox (deterministic generator, seed 1) and pages through GET /v1.0/users with
     scripts/fetch_users.py to write the people as JSON for the Hugo content adapter;
  2. warms up orgdir and Hugo once each and lists their outputs as manifests ("SIZE<TAB>PATH"), which the
     floor writer reproduces file for file;
  3. measures rounds interleaved: orgdir, Hugo, floor (orgdir's files), floor (Hugo's files), orgdir, ...
     each on an emptied output folder, each under GNU time for wall time, CPU time and peak RSS;
  4. nightly rebuild: a second sandbox of the same tenant, one untimed full build and one untimed nightly (the
     night before), then per round POST /_sandbox/changes with 1% of the people (hires, leavers, moves, new
     phones, new managers; a new seed each round) and a timed `orgdir build` on the kept output and state;
  5. `orgdir diff` of the last two of those snapshots (previous and latest, both N people);
  6. 100 ms of latency on every users page (POST /_sandbox/faults): `orgdir fetch` and a whole
     `orgdir build`, interleaved, against the sequential floor (pages x latency).
Then it prints one table and writes it to Benchmarks/work/results.md (and results.json).
"""
import json
import math
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
TENANT = "contoso"
CLIENT_ID = "11111111-2222-3333-4444-555555555555"
SECRET = "sandbox-secret"
GRAPH_MAX_PAGE = 999


def log(message):
    """Progress on stderr, time-stamped, so a long run shows where it is."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


@dataclass
class Config:
    """Everything the environment decides (see README: BENCH_* variables)."""
    orgdir: str
    sandbox: str
    hugo: str
    floor: str
    sizes: list
    rounds: int
    disk: bool
    latency_ms: int
    million: bool
    tmpfs_root: Path
    disk_root: Path
    work: Path
    only: set

    @staticmethod
    def from_environment():
        quick = os.environ.get("BENCH_QUICK") == "1"
        sizes = os.environ.get("BENCH_SIZES") or ("2000" if quick else "10000 100000")
        work = Path(os.environ.get("BENCH_WORK", BENCH / "work"))
        only = set((os.environ.get("BENCH_ONLY") or "full nightly first diff latency").split())
        return Config(
            orgdir=os.environ["BENCH_ORGDIR"],
            sandbox=os.environ["BENCH_SANDBOX"],
            hugo=os.environ["BENCH_HUGO"],
            floor=os.environ["BENCH_FLOOR"],
            sizes=[int(size) for size in sizes.replace(",", " ").split()],
            rounds=max(1, int(os.environ.get("BENCH_ROUNDS", "3"))),
            disk=os.environ.get("BENCH_DISK") == "1",
            latency_ms=int(os.environ.get("BENCH_LATENCY_MS", "100")),
            million=os.environ.get("BENCH_MILLION") == "1",
            tmpfs_root=Path(os.environ.get("BENCH_TMPFS", "/dev/shm/orgdir-bench")),
            disk_root=work / "disk",
            work=work,
            only=only,
        )


# MARK: - measuring


@dataclass
class Run:
    """One timed command: wall and CPU seconds, peak resident set, exit status."""
    wall: float
    user: float
    system: float
    rss_kb: int
    code: int
    stdout: str = ""
    stderr_tail: str = ""
    sandbox_cpu: float = math.nan


def timed(command, log_name, env=None, cwd=None, accept=(0,), timeout=3600, sandbox=None):
    """Runs `command` under GNU time (`%e %U %S %M`: the kernel's own accounting of the process tree);
    with `sandbox`, also the CPU time that sandbox spent meanwhile."""
    sandbox_before = sandbox.cpu_seconds() if sandbox else math.nan
    logs = CONFIG.work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    stamp = logs / f"{log_name}.time"
    out_path, err_path = logs / f"{log_name}.out", logs / f"{log_name}.err"
    with open(out_path, "w") as out, open(err_path, "w") as err:
        try:
            completed = subprocess.run(
                ["/usr/bin/time", "-f", "%e %U %S %M", "-o", str(stamp), "--", *command],
                stdout=out, stderr=err, env=env, cwd=cwd, timeout=timeout)
            code = completed.returncode
        except subprocess.TimeoutExpired:
            code = -1
    try:
        fields = stamp.read_text().strip().splitlines()[-1].split()
        wall, user, system, rss = float(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
    except (OSError, IndexError, ValueError):
        wall, user, system, rss = math.nan, math.nan, math.nan, 0
    stdout = out_path.read_text(errors="replace")
    tail = " ".join(err_path.read_text(errors="replace").strip().splitlines()[-2:])[-300:]
    run = Run(wall, user, system, rss, code, stdout, tail)
    if sandbox:
        run.sandbox_cpu = sandbox.cpu_seconds() - sandbox_before
    if code not in accept:
        log(f"  {log_name}: exit {code}: {tail}")
    return run


def remove(*paths):
    """Empties outputs between runs (untimed); `rm -rf` is quicker than Python on 300,000 files. With each path goes
    the spare site orgdir keeps beside an output (`.NAME.spare`), so a full build starts from nothing."""
    spares = [Path(path).parent / f".{Path(path).name}.spare" for path in paths]
    existing = [str(path) for path in [*paths, *spares] if Path(path).exists()]
    if existing:
        subprocess.run(["rm", "-rf", *existing], check=False)


def settle(root):
    """Before a timed run on disk: flush what earlier runs left dirty so it is not charged to this one."""
    if not str(root).startswith("/dev/shm"):
        subprocess.run(["sync"], check=False)


def write_manifest(folder, manifest):
    """Lists every file under `folder` as 'SIZE<TAB>PATH', sorted; returns (files, bytes)."""
    entries = []
    for directory, _, names in os.walk(folder):
        for name in names:
            path = Path(directory, name)
            entries.append((str(path.relative_to(folder)), path.stat().st_size))
    entries.sort()
    with open(manifest, "w") as out:
        for path, size in entries:
            out.write(f"{size}\t{path}\n")
    return len(entries), sum(size for _, size in entries)


def count_files(folder):
    """Files and bytes under `folder` (0, 0 when it does not exist)."""
    files = size = 0
    for directory, _, names in os.walk(folder):
        for name in names:
            files += 1
            size += Path(directory, name).stat().st_size
    return files, size


# MARK: - the sandbox


class Sandbox:
    """One graph-sandbox process and its control API."""

    def __init__(self, users, seed, name, executable=None, logs=None):
        """`executable` and `logs` (a folder for its stderr) default to the benchmark's own."""
        self.users = users
        log(f"starting graph-sandbox ({name}: {users} people, seed {seed})")
        self.stderr = open(Path(logs or CONFIG.work / "logs") / f"sandbox-{name}.err", "w")
        self.process = subprocess.Popen(
            [executable or CONFIG.sandbox, "--port", "0", "--users", str(users), "--seed", str(seed)],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True, start_new_session=True)
        started = time.monotonic()
        line = self.process.stdout.readline().strip()
        if not line.startswith("http"):
            self.stop()
            raise RuntimeError(f"graph-sandbox printed {line!r} instead of its base URL "
                               f"(see {self.stderr.name})")
        self.base = line.rstrip("/")
        self.control("GET", "/_sandbox/health")
        log(f"  sandbox at {self.base} after {time.monotonic() - started:.1f} s")

    def control(self, method, path, body=None):
        """Calls the /_sandbox control API; returns the decoded JSON answer or None."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=600) as answer:
            payload = answer.read()
        return json.loads(payload) if payload else None

    def users_pages(self):
        """How many GET /v1.0/users pages were served since the last `forget`."""
        records = self.control("GET", "/_sandbox/requests") or []
        return sum(1 for record in records
                   if record.get("method") == "GET" and record.get("target", "").startswith("/v1.0/users"))

    def cpu_seconds(self):
        """User + system CPU the sandbox process has used so far (/proc/PID/stat), to show how much of a
        build's wall time went into serving it rather than into orgdir."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return math.nan

    def forget(self):
        self.control("DELETE", "/_sandbox/requests")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()


def write_settings(path, sandbox, output, state, extra=None):
    """A settings.plist pointing orgdir at `sandbox`, with orgdir's defaults for everything else."""
    keys = {
        "tenant": TENANT, "clientId": CLIENT_ID, "authority": sandbox.base, "graphAPI": sandbox.base + "/",
        "output": str(output), "state": str(state), **(extra or {}),
    }
    body = "".join(f"<key>{key}</key><string>{value}</string>\n" for key, value in keys.items())
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        f'<plist version="1.0"><dict>\n{body}</dict></plist>\n')
    return path


def orgdir_env():
    return {**os.environ, "ORGDIR_CLIENT_SECRET": SECRET}


def orgdir_has(command):
    """Whether the built orgdir knows a subcommand (so rows can say 'pending' instead of failing)."""
    try:
        probe = subprocess.run([CONFIG.orgdir, command, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def summary_of(run):
    """orgdir's --json run summary, when it printed one."""
    try:
        return json.loads(run.stdout)
    except ValueError:
        return {}


# MARK: - rows


@dataclass
class Row:
    """One line of the results table."""
    name: str
    people: int
    runs: list = field(default_factory=list)
    note: str = ""
    files: tuple = (0, 0)
    ratio: str = ""
    target: str = ""
    verdict: str = ""
    fixed_seconds: float = math.nan  # for computed rows (the sequential floor)

    def ok_runs(self):
        return [run for run in self.runs if run.code in (0, 1) and not math.isnan(run.wall)]

    @property
    def median(self):
        if not math.isnan(self.fixed_seconds):
            return self.fixed_seconds
        runs = self.ok_runs()
        return statistics.median(run.wall for run in runs) if runs and len(runs) == len(self.runs) else math.nan

    @property
    def cpu(self):
        runs = self.ok_runs()
        return statistics.median(run.user + run.system for run in runs) if runs else math.nan

    @property
    def sandbox_cpu(self):
        values = [run.sandbox_cpu for run in self.ok_runs() if run.sandbox_cpu == run.sandbox_cpu]
        return statistics.median(values) if values else math.nan

    @property
    def rss_mb(self):
        runs = self.ok_runs()
        return max(run.rss_kb for run in runs) / 1024 if runs else math.nan

    @property
    def failed(self):
        return any(run.code not in (0, 1) for run in self.runs)


ROWS = []


def row(name, people, **values):
    made = Row(name, people, **values)
    ROWS.append(made)
    return made


def ratio(a, b):
    return a / b if a == a and b == b and b > 0 else math.nan


def judge(value, limit):
    if value != value:
        return "n/a"
    return "yes" if value <= limit else "NO"


# MARK: - the benchmark groups


def prepare_data(size, sandbox, root):
    """The people as JSON for Hugo, fetched from the sandbox like any Graph client would."""
    site = root / "hugo-site"
    remove(site)
    shutil.copytree(BENCH / "hugo-site", site)
    (site / "assets").mkdir(exist_ok=True)
    data = site / "assets" / "users.json"
    subprocess.run([sys.executable, str(HERE / "fetch_users.py"), "--base", sandbox.base, "--out", str(data)],
                   check=True)
    shutil.copy(data, CONFIG.work / f"users-{size}.json")
    return site


def synthetic_manifest(size, data, manifest):
    """When orgdir cannot build yet: orgdir's layout (people/<slug>.md, .html, .vcf, an index) with
    typical sizes, so the floor row still means something."""
    people = json.loads(Path(data).read_text())
    with open(manifest, "w") as out:
        out.write("6000\tindex.html\n")
        for person in sorted(people, key=lambda person: person["slug"]):
            for suffix, bytes_ in ((".html", 3600), (".md", 700), (".vcf", 350)):
                out.write(f"{bytes_}\tpeople/{person['slug']}{suffix}\n")
    return len(people) * 3 + 1


def full_builds(size, sandbox, root, where):
    """orgdir, Hugo and the floor writer, interleaved, each on an emptied folder."""
    label = f"{size}-{where}"
    root.mkdir(parents=True, exist_ok=True)
    site = CONFIG.tmpfs_root / str(size) / "hugo-site"
    out_orgdir, state = root / "orgdir-out", root / "orgdir-state"
    out_hugo, out_floor, out_floor_hugo = root / "hugo-out", root / "floor-out", root / "floor-hugo-out"
    settings = write_settings(root / "settings.plist", sandbox, out_orgdir, state)
    orgdir_cmd = [CONFIG.orgdir, "build", "--config", str(settings), "--json"]
    hugo_cmd = [CONFIG.hugo, "--quiet", "--source", str(site), "--destination", str(out_hugo),
                "--cacheDir", str(root / "hugo-cache"), "--noBuildLock"]
    suffix = "" if where == "tmpfs" else f" ({where})"
    rows = {
        "orgdir": row(f"orgdir full build{suffix}", size),
        "hugo": row(f"Hugo, same people{suffix}", size),
        "floor": row(f"floor writer, orgdir's files{suffix}", size),
        "floor-hugo": row(f"floor writer, Hugo's files{suffix}", size),
    }

    log(f"{label}: warm-up (untimed): orgdir, Hugo")
    remove(out_orgdir, state, out_hugo)
    warm = timed(orgdir_cmd, f"{label}-orgdir-warmup", env=orgdir_env())
    manifest_orgdir = root / "orgdir.manifest"
    if warm.code == 0:
        write_manifest(out_orgdir, manifest_orgdir)
    else:
        rows["orgdir"].note = f"orgdir failed (exit {warm.code}); floor uses orgdir's layout with typical sizes"
        synthetic_manifest(size, site / "assets" / "users.json", manifest_orgdir)
    timed(hugo_cmd, f"{label}-hugo-warmup")
    manifest_hugo = root / "hugo.manifest"
    write_manifest(out_hugo, manifest_hugo)

    steps = [
        ("orgdir", lambda: (remove(out_orgdir, state), orgdir_cmd, orgdir_env(), out_orgdir)),
        ("hugo", lambda: (remove(out_hugo), hugo_cmd, None, out_hugo)),
        ("floor", lambda: (remove(out_floor), [CONFIG.floor, str(manifest_orgdir), str(out_floor)], None,
                           out_floor)),
        ("floor-hugo", lambda: (remove(out_floor_hugo),
                                [CONFIG.floor, str(manifest_hugo), str(out_floor_hugo)], None, out_floor_hugo)),
    ]
    for round_number in range(1, CONFIG.rounds + 1):
        for key, prepare in steps:
            _, command, env, output = prepare()
            settle(root)
            log(f"{label}: round {round_number}: {key}")
            run = timed(command, f"{label}-{key}-{round_number}", env=env,
                        sandbox=sandbox if key == "orgdir" else None)
            rows[key].runs.append(run)
            if round_number == 1:
                rows[key].files = count_files(output)
    summary = summary_of(rows["orgdir"].runs[-1]) if rows["orgdir"].runs else {}
    if summary:
        rows["orgdir"].note = "; ".join(filter(None, [
            rows["orgdir"].note,
            f"{summary.get('published', '?')} people published, {summary.get('pages', '?')} Graph pages"]))
    remove(out_floor, out_floor_hugo, out_hugo)
    return rows


def nightly_and_diff(size, root, where="tmpfs"):
    """A 1% change between nightly runs, on kept output and state; the first nightly after a full build (group
    "first"); then `orgdir diff` of two snapshots. On disk (`where` "disk") the nightly rows only: the diff writes
    no site, and its row stays the tmpfs one."""
    label = f"{size}-{'nightly' if where == 'tmpfs' else where + '-nightly'}"
    suffix = "" if where == "tmpfs" else f" ({where})"
    changes = max(1, size // 100)
    sandbox = Sandbox(size, 1, label)
    root.mkdir(parents=True, exist_ok=True)
    nightly = row(f"nightly rebuild, 1% changed{suffix}", size,
                  note=f"{changes} changes/round via POST /_sandbox/changes, kept output+state")
    first_nights = row(f"nightly rebuild, first after a full build{suffix}", size,
                       note=f"{changes} changes/round; each round a new full build (untimed) first"
                       ) if "first" in CONFIG.only else None
    diff = row("orgdir diff, two snapshots", size) if where == "tmpfs" else None
    try:
        output, state = root / "nightly-out", root / "nightly-state"
        remove(output, state)
        settings = write_settings(root / "nightly.plist", sandbox, output, state)
        command = [CONFIG.orgdir, "build", "--config", str(settings), "--json"]
        log(f"{label}: first build (untimed)")
        first = timed(command, f"{label}-first", env=orgdir_env())
        if first.code != 0:
            nightly.note = f"first build failed (exit {first.code}): {first.stderr_tail}"
            pending(diff)
            return nightly, first_nights, diff
        summaries = []
        # Round 0 is untimed: the night before, as cron would have run it (the steady state: with `publish`
        # `changedFiles`, the default, every night moves its changes into the published site; with `wholeSite` it
        # leaves the site it replaced as the spare that every later night updates in place).
        for round_number in range(0, CONFIG.rounds + 1):
            try:
                applied = sandbox.control("POST", "/_sandbox/changes",
                                          {"count": changes, "seed": 1000 + round_number})
            except (OSError, urllib.error.URLError) as error:
                # A sandbox that cannot apply the changes (it timed out at 100,000 people once) costs this group,
                # not the whole run: the table is still printed with the rows measured so far.
                log(f"{label}: POST /_sandbox/changes failed: {error}")
                nightly.note += f"; stopped in round {round_number}: POST /_sandbox/changes failed ({error})"
                pending(diff)
                return nightly, first_nights, diff
            settle(root)
            log(f"{label}: round {round_number}: {applied} then orgdir build")
            run = timed(command, f"{label}-{round_number}", env=orgdir_env(), sandbox=sandbox)
            if round_number == 0:
                if run.code != 0:
                    nightly.note += f"; the untimed night before failed (exit {run.code}): {run.stderr_tail}"
                    pending(diff)
                    return nightly, first_nights, diff
                continue
            nightly.runs.append(run)
            summaries.append(summary_of(run))
        nightly.files = count_files(output)
        written = [summary.get("filesWritten") for summary in summaries if summary]
        unchanged = [summary.get("filesUnchanged") for summary in summaries if summary]
        if written:
            nightly.note += f"; files written per round {written}, unchanged {unchanged[-1] if unchanged else '?'}"

        if first_nights:
            first_nightly(first_nights, sandbox, root, changes, label)
        if diff is None:
            remove(output, state)
            return nightly, first_nights, diff
        if not orgdir_has("diff"):
            diff.note = "pending: this orgdir has no 'diff' command yet"
            return nightly, first_nights, diff
        diff.note = "previous vs latest snapshot (1% apart), text format to /dev/null"
        for round_number in range(1, CONFIG.rounds + 1):
            log(f"{label}: round {round_number}: orgdir diff")
            diff.runs.append(timed([CONFIG.orgdir, "diff", "--state", str(state), "previous", "latest"],
                                   f"{label}-diff-{round_number}", accept=(0, 1)))
        return nightly, first_nights, diff
    finally:
        sandbox.stop()


def pending(diff):
    """The diff row, when there is one, waits for snapshots a failed nightly did not make."""
    if diff is not None:
        diff.note = "pending: needs the nightly snapshots"


def latency(size, sandbox, root):
    """Fetch and whole build with injected latency on every users page, against pages x latency."""
    label = f"{size}-latency"
    ms = CONFIG.latency_ms
    fetch = row(f"orgdir fetch, {ms} ms/page", size)
    build = row(f"orgdir full build, {ms} ms/page", size)
    floor = row(f"sequential floor: pages x {ms} ms", size)
    output, state = root / "latency-out", root / "latency-state"
    settings = write_settings(root / "latency.plist", sandbox, output, state)
    has_fetch = orgdir_has("fetch")
    if not has_fetch:
        fetch.note = "pending: this orgdir has no 'fetch' command yet"
    sandbox.control("POST", "/_sandbox/faults",
                    {"rules": [{"fault": "latency", "milliseconds": ms, "on": "users"}]})
    pages = []
    try:
        for round_number in range(1, CONFIG.rounds + 1):
            if has_fetch:
                remove(output, state)
                sandbox.forget()
                log(f"{label}: round {round_number}: orgdir fetch")
                fetch.runs.append(timed([CONFIG.orgdir, "fetch", "--config", str(settings)],
                                        f"{label}-fetch-{round_number}", env=orgdir_env(), sandbox=sandbox))
                pages.append(sandbox.users_pages())
            remove(output, state)
            sandbox.forget()
            settle(root)
            log(f"{label}: round {round_number}: orgdir build")
            build.runs.append(timed([CONFIG.orgdir, "build", "--config", str(settings), "--json"],
                                    f"{label}-build-{round_number}", env=orgdir_env(), sandbox=sandbox))
            pages.append(sandbox.users_pages())
    finally:
        sandbox.control("DELETE", "/_sandbox/faults")
        remove(output, state)
    served = max(pages) if pages else 0
    ideal = math.ceil(size / GRAPH_MAX_PAGE)
    floor.fixed_seconds = (served or ideal) * ms / 1000
    floor.note = (f"{served} users pages as orgdir asked for them (fewest possible at $top={GRAPH_MAX_PAGE}: "
                  f"{ideal} = {ideal * ms / 1000:.1f} s)")
    return fetch, build, floor


def inode_holders(folder, leaving_out):
    """The entries of `folder` (but `leaving_out`) by how many files and folders each holds, most first: what to
    delete when the file system has too few inodes left for the million-person site."""
    holders = []
    for entry in sorted(Path(folder).iterdir()) if Path(folder).is_dir() else []:
        if entry == leaving_out:
            continue
        count = 1
        if entry.is_dir() and not entry.is_symlink():
            for _, folders, files in os.walk(entry):
                count += len(folders) + len(files)
        holders.append((str(entry), count))
    return sorted(holders, key=lambda holder: -holder[1])


def million(root, sandbox):
    """One orgdir full build at 1,000,000 people: does it finish, and in how much memory."""
    size = sandbox.users
    big = row("orgdir full build (1M)", size)
    output, state = root / "million-out", root / "million-state"
    remove(output, state)
    settings = write_settings(root / "million.plist", sandbox, output, state)
    # A million-person site is about 3.05 million files: tmpfs's default inode count (half the RAM in pages, about
    # 3.1 million here) leaves no room for anything else, e.g. a profile's site left in /dev/shm.
    free = os.statvfs(root).f_favail
    if free < 3_060_000:
        big.note = f"only {free:,} free inodes where the site is written; it needs about 3.05 million"
        holders = inode_holders(CONFIG.tmpfs_root.parent, leaving_out=CONFIG.tmpfs_root)
        held = "; ".join(f"{path} holds {count:,}" for path, count in holders[:5]) or "nothing else found there"
        big.note += f" ({held})"
        log(f"1M: WARNING {big.note} (empty {CONFIG.tmpfs_root.parent} of other sites first)")
    log("1M: orgdir full build")
    big.runs.append(timed([CONFIG.orgdir, "build", "--config", str(settings), "--json"], "million-build",
                          env=orgdir_env(), timeout=5400, sandbox=sandbox))
    big.files = count_files(output)
    big.target = "completes, RSS <= 2048 MB"
    big.verdict = "yes" if not big.failed and big.rss_mb <= 2048 else "NO"
    remove(output, state)
    return big


# MARK: - the table


def fmt(value, digits=2):
    return "–" if value != value else f"{value:.{digits}f}"


def first_nightly(made, sandbox, root, changes, label):
    """The first nightly after a first build, per round from a new first build (untimed) on its own output and
    state. With `publish` `changedFiles` (the default) it moves its changes into the published site as every later
    night does; with `wholeSite` it has no spare site to update yet and links every unchanged file into a new staging
    folder. Of its state files only the export row table is written over. What a checker sees that times a nightly
    right after a full build."""
    output, state = root / "first-nightly-out", root / "first-nightly-state"
    settings = write_settings(root / "first-nightly.plist", sandbox, output, state)
    command = [CONFIG.orgdir, "build", "--config", str(settings), "--json"]
    for round_number in range(1, CONFIG.rounds + 1):
        remove(output, state)
        log(f"{label}: first nightly, round {round_number}: first build (untimed)")
        first = timed(command, f"{label}-first-build-{round_number}", env=orgdir_env())
        if first.code != 0:
            made.note += f"; the first build of round {round_number} failed (exit {first.code}): {first.stderr_tail}"
            break
        try:
            sandbox.control("POST", "/_sandbox/changes", {"count": changes, "seed": 2000 + round_number})
        except (OSError, urllib.error.URLError) as error:
            made.note += f"; stopped in round {round_number}: POST /_sandbox/changes failed ({error})"
            break
        settle(root)
        log(f"{label}: first nightly, round {round_number}: orgdir build")
        made.runs.append(timed(command, f"{label}-first-nightly-{round_number}", env=orgdir_env(), sandbox=sandbox))
    made.files = count_files(output)
    remove(output, state)


def assess(by_size):
    """Fills in ratios, targets and verdicts from the medians of this run."""
    for size, rows in by_size.items():
        for where in ("tmpfs", "disk"):
            full = rows.get(("full", where))
            if not full:
                continue
            orgdir, hugo, floor, floor_hugo = full["orgdir"], full["hugo"], full["floor"], full["floor-hugo"]
            vs_hugo, vs_floor = ratio(orgdir.median, hugo.median), ratio(orgdir.median, floor.median)
            orgdir.ratio = f"{fmt(vs_hugo)} × Hugo, {fmt(vs_floor)} × floor"
            orgdir.target = "≤ 0.5 × Hugo, ≤ 1.5 × floor, ≤ 400 MB"
            orgdir.verdict = "n/a" if orgdir.failed else (
                "yes" if vs_hugo <= 0.5 and vs_floor <= 1.5 and orgdir.rss_mb <= 400 else "NO")
            hugo.ratio = f"{fmt(ratio(hugo.median, floor_hugo.median))} × its floor"
        reference = rows.get(("full", "tmpfs"), {}).get("orgdir")
        on_disk = rows.get(("full", "disk"), {}).get("orgdir")
        # Each nightly row against the full build on the same file system: the disk rows against the disk build.
        for key, against, named in (("nightly", reference, ""), ("first-nightly", reference, ""),
                                    ("diff", reference, ""), (("nightly", "disk"), on_disk, " (disk)"),
                                    (("first-nightly", "disk"), on_disk, " (disk)")):
            target_row = rows.get(key)
            if target_row and against:
                value = ratio(target_row.median, against.median)
                target_row.ratio = f"{fmt(value, 3)} × full build{named}"
                target_row.target = "≤ 0.10 × full build"
                target_row.verdict = judge(value, 0.10) if target_row.runs else "pending"
        if "latency" in rows:
            fetch, build, floor = rows["latency"]
            value = ratio(fetch.median, floor.median)
            fetch.ratio = f"{fmt(value)} × sequential floor"
            fetch.target = "≤ 1.2 × sequential floor"
            fetch.verdict = judge(value, 1.2) if fetch.runs else "pending"
            slower = max((x for x in (fetch.median, reference.median if reference else math.nan) if x == x),
                         default=math.nan)
            value = ratio(build.median, slower)
            build.ratio = f"{fmt(value)} × slower of fetch / build alone"
            build.target = "≤ 1.2 × max(fetch, full build)"
            build.verdict = judge(value, 1.2)


def table(by_size):
    lines = [
        "| benchmark | people | median wall s | runs (wall s) | CPU s (user+sys) | sandbox CPU s | peak RSS MB | "
        "files | ratio (of medians) | target | met |",
        "|---|---:|---:|---|---:|---:|---:|---:|---|---|---|",
    ]
    for made in ROWS:
        runs = ", ".join(
            fmt(run.wall, 2) if run.code in (0, 1) else f"exit {run.code}" for run in made.runs) or "–"
        files = f"{made.files[0]:,}" if made.files[0] else "–"
        lines.append(
            f"| {made.name} | {made.people:,} | {fmt(made.median)} | {runs} | {fmt(made.cpu)} | "
            f"{fmt(made.sandbox_cpu, 1)} | {fmt(made.rss_mb, 0)} | {files} | {made.ratio} | {made.target} | {made.verdict} |")
    notes = [f"- {made.name} ({made.people:,}): {made.note}" for made in ROWS if made.note]
    return "\n".join(lines), notes


def machine():
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores ({cpu}), {memory:.0f} GiB RAM, {platform.system()} {platform.release()}"


def main():
    CONFIG.work.mkdir(parents=True, exist_ok=True)
    (CONFIG.work / "logs").mkdir(exist_ok=True)
    started = time.time()
    by_size = {}
    for size in CONFIG.sizes:
        rows = by_size.setdefault(size, {})
        root = CONFIG.tmpfs_root / str(size)
        root.mkdir(parents=True, exist_ok=True)
        sandbox = Sandbox(size, 1, f"main-{size}")
        try:
            prepare_data(size, sandbox, root)
            if "full" in CONFIG.only:
                rows[("full", "tmpfs")] = full_builds(size, sandbox, root, "tmpfs")
                if CONFIG.disk:
                    rows[("full", "disk")] = full_builds(size, sandbox, CONFIG.disk_root / str(size), "disk")
                    remove(CONFIG.disk_root / str(size))
            if CONFIG.only & {"nightly", "first", "diff"}:
                rows["nightly"], rows["first-nightly"], rows["diff"] = nightly_and_diff(size, root)
                if CONFIG.disk and CONFIG.only & {"nightly", "first"}:
                    disk = CONFIG.disk_root / str(size)
                    rows[("nightly", "disk")], rows[("first-nightly", "disk")], _ = nightly_and_diff(
                        size, disk, "disk")
                    remove(disk)
            if "latency" in CONFIG.only:
                rows["latency"] = latency(size, sandbox, root)
        finally:
            sandbox.stop()
        remove(root)
    if CONFIG.million:
        root = CONFIG.tmpfs_root / "1000000"
        root.mkdir(parents=True, exist_ok=True)
        sandbox = Sandbox(1_000_000, 1, "million")
        try:
            million(root, sandbox)
        finally:
            sandbox.stop()
        remove(root)
    assess(by_size)
    text, notes = table(by_size)
    command = " ".join(f"{key}={os.environ[key]}" for key in sorted(os.environ) if key.startswith("BENCH_")
                       and key not in ("BENCH_ORGDIR", "BENCH_SANDBOX", "BENCH_HUGO", "BENCH_FLOOR", "BENCH_WORK"))
    hugo_version = subprocess.run([CONFIG.hugo, "version"], capture_output=True, text=True).stdout.strip()
    header = [
        f"# orgdir benchmark results ({time.strftime('%Y-%m-%d %H:%M %Z')})",
        "",
        f"Command: `{(command + ' ') if command else ''}make bench` — {CONFIG.rounds} rounds, interleaved; "
        f"outputs on {CONFIG.tmpfs_root} (tmpfs){' and on disk' if CONFIG.disk else ''}; "
        f"took {(time.time() - started) / 60:.0f} min.",
        f"Machine: {machine()}.",
        f"Hugo: {' '.join(hugo_version.split()[:2])}; orgdir and graph-sandbox: release builds.",
        "",
    ]
    result = "\n".join(header) + "\n" + text + "\n\nNotes:\n" + "\n".join(notes) + "\n"
    (CONFIG.work / "results.md").write_text(result)
    (CONFIG.work / "results.json").write_text(json.dumps(
        [{"name": made.name, "people": made.people, "median": made.median, "rss_mb": made.rss_mb,
          "runs": [run.__dict__ | {"stdout": ""} for run in made.runs], "files": made.files,
          "ratio": made.ratio, "verdict": made.verdict, "note": made.note} for made in ROWS], indent=1))
    print(result)
    log(f"written to {CONFIG.work / 'results.md'}")


# Set when run as the benchmark; scripts that import this module for `Sandbox` and `write_settings` pass
# their own paths instead.
CONFIG = None

if __name__ == "__main__":
    CONFIG = Config.from_environment()
    main()
