#!/usr/bin/env bash
# CTest cli.check-faults (docs/comparing.md, "results.csv" and "Exit status"): gjkref's own failures in a campaign —
# the oracle failing on a case, an in-process reference mode throwing — are saved in oracle-failures/, logged, and
# given a row (`oracle-failed`) in results.csv; the campaign goes on past them to the end, exits with status 3, and run
# again resumes finished rather than stopping on the same item (a throwing reference mode used to end its shard, and
# every resumed run stopped there again). No valid input is known to cause either, so both are injected
# (GJKREF_INJECT_FAULT, cli/fault.hpp). Then a clean campaign resumed from a log whose last line lost its newline
# judges that item again, and a stray file in counterexamples/ does not stop its reports.
# Usage: check-faults.sh GJKREF WORKDIR
set -uo pipefail
GJKREF="$1"
WORK="$2"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "check-faults: $*"; exit 1; }
CASES=4
# Rows of results.csv whose oracle column is $2.
rows() { awk -F, -v o="$2" 'NR > 1 && $5 == o' "$1/results.csv" | wc -l; }
items() { python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["items"], r["oracle_failures"], r["partial"])' "$1/report.json"; }

for fault in distance-oracle run:reference-double; do
  out="$WORK/${fault//[:]/-}"
  ARGS=(check --impl reference-double,reference-float --family touching --dim 2 --cases $CASES --seed 5 --jobs 1
        --no-progress --out "$out")
  GJKREF_INJECT_FAULT=$fault "$GJKREF" "${ARGS[@]}" > "$out.stdout" 2> "$out.stderr"
  status=$?
  [[ $status -eq 3 ]] || fail "$fault: exit status $status, not 3: $(tail -n 3 "$out.stderr")"
  [[ $(find "$out/oracle-failures" -name '*.json' | wc -l) -eq $CASES ]] || fail "$fault: not every case saved"
  [[ $(rows "$out" oracle-failed) -eq $CASES ]] || fail "$fault: results.csv: $(cat "$out/results.csv")"
  [[ "$(items "$out")" == "$CASES $CASES False" ]] || fail "$fault: report.json items, failures, partial: $(items "$out")"
  grep -q "THE ORACLE FAILED on $CASES cases" "$out.stderr" || fail "$fault: stderr: $(cat "$out.stderr")"
  if [[ $fault == run:* ]]; then
    grep -q "reference-double (not the oracle) THREW: a fault injected at run:reference-double" \
      "$out"/oracle-failures/*.json || fail "$fault: the saved case does not name the implementation"
  fi
  # Run again: finished, resumed without stopping, the same report.
  GJKREF_INJECT_FAULT=$fault "$GJKREF" "${ARGS[@]}" > "$out.again" 2>&1
  status=$?
  [[ $status -eq 3 && "$(items "$out")" == "$CASES $CASES False" ]] ||
    fail "$fault: run again: exit status $status, $(items "$out"): $(tail -n 3 "$out.again")"
done
# Without a fault the same campaign is clean.
"$GJKREF" check --impl reference-double,reference-float --family touching --dim 2 --cases $CASES --seed 5 --jobs 1 \
  --no-progress --out "$WORK/clean" > /dev/null 2>&1
status=$?
[[ $status -eq 0 && $(rows "$WORK/clean" oracle-failed) -eq 0 ]] || fail "without a fault: exit status $status"
# A log whose last line lost only its newline (a kill between the line and its newline): the line is dropped and its
# item judged again, not counted as done and then dropped (which left the item unlogged and the report partial).
log=$(ls "$WORK/clean"/shard-*.jsonl | head -n 1)
last_key=$(tail -n 1 "$log" | python3 -c 'import json, sys; print(json.loads(sys.stdin.read())["key"])')
truncate -s -1 "$log"
# ... and a file in counterexamples/ whose index is beyond int's range (not the campaign's: passed over, where it
# stopped every report with "stopped: stoi").
mkdir -p "$WORK/clean/counterexamples/x/y"
echo '{}' > "$WORK/clean/counterexamples/x/y/touching-2d-99999999999.json"
"$GJKREF" check --impl reference-double,reference-float --family touching --dim 2 --cases $CASES --seed 5 --jobs 1 \
  --no-progress --out "$WORK/clean" > "$WORK/clean.again" 2>&1
status=$?
[[ $status -eq 0 && "$(items "$WORK/clean")" == "$CASES 0 False" ]] ||
  fail "a log cut before its last newline, a stray file: exit status $status, $(items "$WORK/clean"): $(tail -n 3 "$WORK/clean.again")"
grep -q "\"key\":\"$last_key\"" "$log" || fail "the cut line's item $last_key was not logged again"
echo "check-faults: every failure saved, logged and in results.csv"
