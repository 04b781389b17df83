# Sourced by the profile scripts: starts graph-sandbox with $users people (seed 1) in the background, waits for
# its URL, and writes $dir/settings.plist pointing orgdir at it (output and state in $dir). Needs $bin, $dir
# and $users (and takes extra graph-sandbox flags from $SANDBOX_ARGS, e.g. "--delta-support none"); sets $sandbox (the pid, killed on exit) and $base (the sandbox's URL),
# and defines change_people and ready_second_nightly (below) for the scripts that replay nightlies.
# shellcheck disable=SC2086 # SANDBOX_ARGS is a list of flags
"$bin/graph-sandbox" --port 0 --users "$users" --seed 1 ${SANDBOX_ARGS:-} > "$dir/sandbox.url" 2> "$dir/sandbox.err" &
sandbox=$!
trap 'kill "$sandbox" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do grep -q http "$dir/sandbox.url" 2>/dev/null && break; sleep 0.1; done
base=$(head -n1 "$dir/sandbox.url")
cat > "$dir/settings.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>tenant</key><string>contoso</string><key>clientId</key><string>11111111-2222-3333-4444-555555555555</string>
<key>authority</key><string>$base</string><key>graphAPI</key><string>$base/</string>
<key>output</key><string>$dir/Output</string><key>state</key><string>$dir/State</string>
${SANDBOX_SETTINGS_EXTRA:-}
</dict></plist>
PLIST

# change_people SEED: the sandbox's own churn (moves, new phones, new managers, hires, leavers) on 1% of $users, as
# the bench's nightly rows make it (POST /_sandbox/changes); the sandbox's reply goes to stdout. CHANGE_PERCENT=4
# changes 4% instead: in `ab-nightly.sh` the replayed night is then some 5.4 % of the people changed since the first
# build's search base (about two thirds of the churn touches what search shows), past the 5 % a search overlay holds,
# so it makes a new base. It removes more people than the removal guard allows by default: give
# SANDBOX_SETTINGS_EXTRA='<key>maxRemovals</key><integer>5000</integer>' (plist lines added to the settings).
change_people() {
  curl -sf -X POST -H 'Content-Type: application/json' \
    -d "{\"count\": $((users * ${CHANGE_PERCENT:-1} / 100)), \"seed\": $1}" \
    "$base/_sandbox/changes"
}

# ready_second_nightly ORGDIR: a full build, 1% changed, an untimed nightly (it leaves the replaced site as the spare
# the next run updates) and 1% more changed (seeds 1000 and 1001): what a nightly run finds on a site rebuilt every
# night.
ready_second_nightly() {
  "$1" build --config "$dir/settings.plist" --quiet
  change_people 1000 > /dev/null
  "$1" build --config "$dir/settings.plist" --quiet
  change_people 1001 > /dev/null
}
