#!/usr/bin/env bash
# CTest cli.oracle-timeout-shrinking (docs/comparing.md, "Oracle time limit"): an oracle call that passes its time
# limit while a counterexample is shrunk ends the process shrinking it, not the saving: that counterexample is saved
# as generated, unshrunk, with a note saying why, and the others are saved as usual.
#   A campaign of the test plugin depth-off-ten-percent (depths 10 % too large) on posed boxes in 3D saves its
#   counterexamples with the default limit; they are removed and the same campaign is run again (it resumes: every
#   case is judged already) with --oracle-time-limit 0.001, below what the depth oracle takes on boxes (a few ms):
#   the exit status is 1 (findings), not 3; every counterexample is saved again; at least one is unshrunk, or the
#   test shows nothing; each replays with eval.
# Usage: oracle-timeout-shrinking.sh GJKREF WORKDIR PLUGINS
set -euo pipefail
GJKREF="$1"
WORK="$2"
PLUGINS="$3"
rm -rf "$WORK"
mkdir -p "$WORK"
ARGS=(check --plugin "$PLUGINS" --impl depth-off-ten-percent --family posed-boxes --dim 3 --cases 20 --seed 5
      --jobs 2 --no-progress --out "$WORK/check")
status=0
"$GJKREF" "${ARGS[@]}" > "$WORK/first.out" 2> "$WORK/first.err" || status=$?
[ "$status" -eq 1 ] || { echo "oracle-timeout-shrinking: the first run exited $status"; cat "$WORK/first.err"; exit 1; }
(cd "$WORK/check" && find counterexamples -name '*.json' | sort) > "$WORK/saved"
[ -s "$WORK/saved" ] || { echo "oracle-timeout-shrinking: the first run saved no counterexample"; exit 1; }
rm -rf "$WORK/check/counterexamples"
status=0
"$GJKREF" "${ARGS[@]}" --oracle-time-limit 0.001 > "$WORK/second.out" 2> "$WORK/second.err" || status=$?
[ "$status" -eq 1 ] || { echo "oracle-timeout-shrinking: the second run exited $status"; cat "$WORK/second.err"; exit 1; }
if grep -q "stopped early" "$WORK/second.err"; then echo "oracle-timeout-shrinking: saving stopped early"; exit 1; fi
(cd "$WORK/check" && find counterexamples -name '*.json' | sort) > "$WORK/saved-again"
cmp -s "$WORK/saved" "$WORK/saved-again" || { echo "oracle-timeout-shrinking: not every counterexample saved again";
  diff "$WORK/saved" "$WORK/saved-again"; exit 1; }
python3 - "$WORK/check" "$GJKREF" "$PLUGINS" "$WORK/saved-again" <<'PY'
import json, os, subprocess, sys
d, gjkref, plugins, saved = sys.argv[1:5]
unshrunk = 0
for name in open(saved).read().split():
    path = os.path.join(d, name)
    cases = json.load(open(path))["cases"]
    if "Not shrunk: the oracle passed its time limit" in cases[0]["note"]:
        unshrunk += 1
        assert len(cases) == 1, path
    out = subprocess.run([gjkref, "eval", "--json", "--impl", "depth-off-ten-percent", "--plugin", plugins, path],
                         capture_output=True, text=True)
    line = json.loads(out.stdout.splitlines()[0])
    assert "results" in line and out.returncode == 1, (path, out.returncode, out.stderr)
assert unshrunk > 0, "no oracle call passed 0.001 s while shrinking: the test shows nothing"
print(f"oracle-timeout-shrinking: {unshrunk} counterexamples saved unshrunk")
PY
grep -q "saved unshrunk as" "$WORK/second.err"
echo "oracle-timeout-shrinking: every counterexample saved"
