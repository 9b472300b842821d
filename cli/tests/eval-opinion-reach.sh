#!/usr/bin/env bash
# CTest cli.eval-opinion-reach (docs/output-formats.md, "opinions"): eval asks Boost.Geometry for its opinion only up to
# kOpinionReachPairs (a million pairs of points: it builds the hull of every difference in memory, and 20,000 + 20,000
# points took 12.5 GB). Above it the opinion is skipped and says so, in the JSON line and in the table; below it, it
# is given as before.
# Usage: eval-opinion-reach.sh GJKREF SOURCE_DIR WORKDIR
set -euo pipefail
GJKREF="$1"
SOURCE="$2"
WORK="$3"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "eval-opinion-reach: $*" >&2; exit 1; }
# 1,001 + 1,000 points: 1,001,000 pairs, just above the reach (two clouds on a lattice, overlapping).
python3 - "$WORK/above.json" <<'PY'
import json, sys
a = [[i % 37, i // 37] for i in range(1001)]
b = [[i % 41 + 5, i // 41 + 3] for i in range(1000)]
json.dump({"format": "gjkref-case/1", "name": "above", "dim": 2, "a": {"points": a}, "b": {"points": b}},
          open(sys.argv[1], "w"))
PY
"$GJKREF" eval --json --impl reference-double "$WORK/above.json" > "$WORK/above.out" || fail "eval exited $?"
python3 - "$WORK/above.out" <<'PY' || fail "the opinion above the reach is not skipped: $(cat "$WORK/above.out")"
import json, sys
line = json.loads(open(sys.argv[1]).readline())
opinion = line["opinions"]["boost-geometry"]
assert "verdict" not in opinion and "1001000 pairs" in opinion["skipped"], opinion
PY
"$GJKREF" eval --impl reference-double "$WORK/above.json" | grep -q 'boost-geometry (opinion)  skipped: 1001000 pairs' ||
  fail "the table does not say the opinion was skipped"
"$GJKREF" eval --json --impl reference-double "$SOURCE/cases/examples/touching-squares-2d.json" > "$WORK/below.out" ||
  fail "eval exited $?"
python3 -c "import json,sys; o=json.loads(open('$WORK/below.out').readline())['opinions']['boost-geometry']; sys.exit(0 if o['verdict'] and 'skipped' not in o else 1)" ||
  fail "the opinion below the reach is not given: $(cat "$WORK/below.out")"
echo "eval-opinion-reach: skipped above the reach, given below"
