#!/usr/bin/env bash
# CTest cli.oracle-timeout (docs/comparing.md, "Oracle time limit"): an oracle call that passes its time limit is a
# per-case result, never the end of a run.
#   eval: cases/limits/slow-oracle-3d.json (about a second of oracle time) with --oracle-time-limit 0.3 is
#         reported as oracle-timeout, the case after it is evaluated as usual, the exit status is 0, and nothing is
#         written to the working directory.
#   check: posed boxes in 3D against Bullet's EPA (whose depths make the oracle build the hull of A-B, a few
#         milliseconds each) with --oracle-time-limit 0.001: every case is logged, the timed-out ones as oracle
#         timeouts listed in report.md and report.json with their saved cases, which eval replays with the default
#         limit; no shard is reported stopped, and the exit status is not 3.
# Usage: oracle-timeout.sh GJKREF SOURCE_DIR WORKDIR
set -euo pipefail
GJKREF="$1"
SRC="$2"
WORK="$3"
rm -rf "$WORK"
mkdir -p "$WORK/cwd"
cd "$WORK/cwd"
status=0
"$GJKREF" eval --json --impl reference-double --oracle-time-limit 0.3 "$SRC/cases/limits/slow-oracle-3d.json" \
  "$SRC/cases/examples/touching-squares-2d.json" > "$WORK/eval.jsonl" 2> "$WORK/eval.err" || status=$?
[ "$status" -eq 0 ] || { echo "oracle-timeout: eval exited $status"; cat "$WORK/eval.err"; exit 1; }
python3 - "$WORK/eval.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 2, lines
assert lines[0]["name"] == "slow-oracle-3d" and lines[0]["result"] == "oracle-timeout", lines[0]
assert "passed its time limit of 0.3 s" in lines[0]["reason"], lines[0]
assert lines[1]["name"] == "touching-squares-2d" and lines[1]["oracle"]["verdict"] == "touching", lines[1]
assert lines[1]["results"]["reference-double"]["agrees"] is True, lines[1]
PY
grep -q "1 cases not judged: an oracle call passed its time limit of 0.3 s" "$WORK/eval.err"
[ -z "$(ls -A "$WORK/cwd")" ] || { echo "oracle-timeout: eval wrote into the working directory:"; ls -A; exit 1; }

status=0
"$GJKREF" check --impl bullet-gjkepa-double --family posed-boxes --dim 3 --cases 10 --seed 3 --jobs 2 \
  --oracle-time-limit 0.001 --no-progress --out "$WORK/check" > "$WORK/check.out" 2> "$WORK/check.err" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
  echo "oracle-timeout: check exited $status"; cat "$WORK/check.err"; exit 1
fi
if grep -q "shard process stopped" "$WORK/check.err"; then echo "oracle-timeout: a shard was reported stopped"; exit 1; fi
[ -z "$(ls -A "$WORK/cwd")" ] || { echo "oracle-timeout: check wrote into the working directory:"; ls -A; exit 1; }
python3 - "$WORK/check" "$GJKREF" <<'PY'
import json, os, subprocess, sys
d, gjkref = sys.argv[1], sys.argv[2]
report = json.load(open(os.path.join(d, "report.json")))
assert report["items"] == 10 and report["campaign_items"] == 10 and not report["partial"], report
timeouts = report["oracle_timeouts"]
assert timeouts, "no oracle call passed 0.001 s: the test shows nothing"
md = open(os.path.join(d, "report.md")).read()
assert "## Oracle timeouts" in md, md
for t in timeouts:
    assert t["method"] in ("hull", "hull-depth", "support-depth", "qp"), t
    assert t["limit_seconds"] == 0.001, t
    assert t["key"] in md, t
    case = os.path.join(d, t["case"])
    # The saved case replays with the default limit: judged, and within the contract.
    out = subprocess.run([gjkref, "eval", "--json", "--impl", "bullet-gjkepa-double", case], capture_output=True, text=True)
    line = json.loads(out.stdout.splitlines()[0])
    assert "results" in line and out.returncode in (0, 1), (out.returncode, out.stdout, out.stderr)
print(f"oracle-timeout: {len(timeouts)} of 10 cases timed out, every case logged")
PY
echo "oracle-timeout: per-case results in eval and check"
