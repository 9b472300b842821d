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
# 4,001 + 250 points: 1,000,250 pairs, just above the reach (two lattices, B inside A). More than the QP oracle's
# 4,000 points, so that eval runs no second method: with 1,001 + 1,000 points the QP checked the answer, and took 14 s
# of each of the two evals under ASan.
python3 - "$WORK/above.json" <<'PY'
import json, sys
a = [[i % 67, i // 67] for i in range(4001)]
b = [[i % 17 + 30, i // 17 + 20] for i in range(250)]
json.dump({"format": "gjkref-case/1", "name": "above", "dim": 2, "a": {"points": a}, "b": {"points": b}},
          open(sys.argv[1], "w"))
PY
"$GJKREF" eval --json --impl reference-double "$WORK/above.json" > "$WORK/above.out" || fail "eval exited $?"
python3 - "$WORK/above.out" <<'PY' || fail "the opinion above the reach is not skipped: $(cat "$WORK/above.out")"
import json, sys
line = json.loads(open(sys.argv[1]).readline())
opinion = line["opinions"]["boost-geometry"]
assert "verdict" not in opinion and "1000250 pairs" in opinion["skipped"], opinion
PY
"$GJKREF" eval --impl reference-double "$WORK/above.json" | grep -q 'boost-geometry (opinion)  skipped: 1000250 pairs' ||
  fail "the table does not say the opinion was skipped"
"$GJKREF" eval --json --impl reference-double "$SOURCE/cases/examples/touching-squares-2d.json" > "$WORK/below.out" ||
  fail "eval exited $?"
python3 -c "import json,sys; o=json.loads(open('$WORK/below.out').readline())['opinions']['boost-geometry']; sys.exit(0 if o['verdict'] and 'skipped' not in o else 1)" ||
  fail "the opinion below the reach is not given: $(cat "$WORK/below.out")"
echo "eval-opinion-reach: skipped above the reach, given below"
