#!/usr/bin/env bash
# CTest cli.eval-batches (docs/comparing.md): one bad file or slow case in a batch costs that file or case alone.
#   - A 200 KB file of arrays nested 100,000 deep is refused with its reason (it crashed the reader once) and exit 2,
#     and the cases before and after it are evaluated and written whole; with --json the refusal is a line of its own
#     ("result": "rejected"), in the file's place.
#   - The third file's case passes --oracle-time-limit: it is reported as oracle-timeout, every case before it was
#     already written, and the cases after it are evaluated.
#   - The summary counts cases and answers apart ("N cases; M answers outside their contract"), as the JSON lines do.
#   - An answer that is no answer (a crash) shows "-" as its distance, not 0.
# Usage: eval-batches.sh GJKREF JUDGE_PLUGINS MISBEHAVING_PLUGIN SOURCE_DIR WORKDIR
set -uo pipefail
GJKREF="$1"
JUDGE="$2"
MISBEHAVING="$3"
SRC="$4"
WORK="$5"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "eval-batches: $*" >&2; exit 1; }
python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
depth = 100000
with open(f"{work}/deep.json", "w") as f:
    f.write('{"format": "gjkref-case/1", "name": "deep", "dim": 3, "a": {"points": ' + "[" * depth + "]" * depth +
            '}, "b": {"points": [[0, 0, 0]]}}\n')
with open(f"{work}/crash.json", "w") as f:  # the misbehaving plugin segfaults when A's first x is 2
    f.write('{"format": "gjkref-case/1", "name": "crash", "dim": 3, "a": {"points": [[2, 0, 0], [3, 0, 0]]}, '
            '"b": {"points": [[0, 0, 0]]}}\n')
PY
EX="$SRC/cases/examples"
FILES=("$EX/touching-squares-2d.json" "$WORK/deep.json" "$SRC/cases/limits/slow-oracle-3d.json" "$EX/examples.json")
ARGS=(--impl reference-double,always-separated --plugin "$JUDGE" --oracle-time-limit 0.3)
status=0
"$GJKREF" eval --json "${ARGS[@]}" "${FILES[@]}" > "$WORK/out.jsonl" 2> "$WORK/err.txt" || status=$?
[ "$status" -eq 2 ] || fail "exit $status, not 2 (a malformed file)"
grep -q "nested more than 16 levels deep" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "no reason for deep.json"; }
status=0
"$GJKREF" eval "${ARGS[@]}" "${FILES[@]}" > "$WORK/out.txt" 2> /dev/null || status=$?
[ "$status" -eq 2 ] || fail "text mode: exit $status, not 2"
python3 - "$WORK" <<'PY' || exit 1
import json, re, sys
work = sys.argv[1]
lines = [json.loads(l) for l in open(f"{work}/out.jsonl")]  # every line whole
# The refused file has a line of its own, in its place: its file, "rejected" and the reason.
assert lines[1]["result"] == "rejected" and lines[1]["file"] == f"{work}/deep.json", lines[1]
assert "nested more than 16 levels deep" in lines[1]["reason"], lines[1]
assert sum(1 for l in lines if l["result"] == "rejected") == 1, lines
lines = [l for l in lines if l["result"] != "rejected"]
names = [l["name"] for l in lines]
assert names[0] == "touching-squares-2d" and names[1] == "slow-oracle-3d" and len(names) == 7, names
assert lines[1]["result"] == "oracle-timeout", lines[1]
evaluated = [l for l in lines if l["result"] == "evaluated"]
assert len(evaluated) == 6, names
outside = sum(1 for l in evaluated for r in l["results"].values() if r["judged"] and not r["agrees"])
text = open(f"{work}/out.txt").read()
m = re.search(r"^(\d+) cases; (\d+) answers outside their contract", text, re.M)
assert m, text[-500:]
assert (int(m.group(1)), int(m.group(2))) == (len(evaluated), outside), (m.group(0), len(evaluated), outside)
assert outside != len(evaluated), "cases and answers would not be told apart"
assert "1 cases not judged (oracle-timeout)" in text, text[-500:]
print(f"eval-batches: {len(evaluated)} cases evaluated, {outside} answers outside their contract, 1 timeout")
PY
"$GJKREF" eval --impl misbehaving --plugin "$MISBEHAVING" "$WORK/crash.json" > "$WORK/crash.txt" 2>&1 || true
grep -qE "^  misbehaving +crashed +- " "$WORK/crash.txt" || { cat "$WORK/crash.txt"; fail "a crash's distance is not shown as -"; }
echo "eval-batches: each failure costs its own file or case"
