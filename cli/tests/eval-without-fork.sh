#!/usr/bin/env bash
# CTest cli.eval-without-fork (docs/comparing.md, "Oracle time limit"): when eval cannot start a process for a case
# (fork fails: the process limit, memory; injected here with GJKREF_INJECT_FAULT=fork, cli/fault.hpp), it evaluates the
# case in its own process and says so. An oracle call there that passes its time limit cannot be stopped: eval reports
# that case as oracle-timeout in its place, says that the cases after it were not evaluated, and exits 3 (it aborted,
# a crash, with nothing said of the case). A case within the limit is evaluated as usual.
# Usage: eval-without-fork.sh GJKREF SOURCE_DIR WORKDIR
set -uo pipefail
GJKREF="$1"
SRC="$2"
WORK="$3"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "eval-without-fork: $*" >&2; exit 1; }
EX="$SRC/cases/examples/touching-squares-2d.json"
SLOW="$SRC/cases/limits/slow-oracle-3d.json"
for mode in --json ""; do
  status=0
  GJKREF_INJECT_FAULT=fork "$GJKREF" eval $mode --impl reference-double --oracle-time-limit 0.3 "$EX" "$SLOW" "$EX" \
    > "$WORK/out" 2> "$WORK/err" || status=$?
  [ "$status" -eq 3 ] || fail "$mode: exit status $status, not 3: $(tail -n 3 "$WORK/err")"
  grep -q "evaluated in eval's own process: fork: " "$WORK/err" || fail "$mode: the fallback is not said: $(cat "$WORK/err")"
  grep -q "stopped at case 'slow-oracle-3d'.*the cases after it were not evaluated" "$WORK/err" ||
    fail "$mode: the stop is not said: $(cat "$WORK/err")"
  if [ -n "$mode" ]; then
    python3 - "$WORK/out" <<'PY' || fail "--json: the lines are not the first case's and the timeout's"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["result"] for l in lines] == ["evaluated", "oracle-timeout"], lines
assert lines[1]["name"] == "slow-oracle-3d" and "time limit" in lines[1]["reason"], lines[1]
PY
  else
    grep -q "^slow-oracle-3d (3D, .*)$" "$WORK/out" && grep -q "^  oracle-timeout: " "$WORK/out" ||
      fail "text: no oracle-timeout block: $(cat "$WORK/out")"
  fi
done
echo "eval-without-fork: a case evaluated in eval's own process ends eval with its timeout reported"
