#!/usr/bin/env bash
# CTest cli.check-faults (docs/comparing.md, "results.csv" and "Exit status"): gjkref's own failures in a campaign.
# The oracle failing on a case: the case saved in oracle-failures/, logged, and given a row (`oracle-failed`) in
# results.csv. An in-process reference mode throwing: its answer is "threw" (a row, judged), the other implementations'
# are judged as usual, and the counterexample's saving keeps the case in oracle-failures/ (a throwing reference mode
# used to end its shard, and every resumed run stopped on the same item). Either way the campaign goes on to the end,
# exits with status 3, and run again resumes finished. No valid input is known to cause either, so both are injected
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

# The oracle failing on every case: each saved and logged, an oracle-failed row in results.csv.
out="$WORK/distance-oracle"
ARGS=(check --impl reference-double,reference-float --family touching --dim 2 --cases $CASES --seed 5 --jobs 1
      --no-progress --out "$out")
GJKREF_INJECT_FAULT=distance-oracle "$GJKREF" "${ARGS[@]}" > "$out.stdout" 2> "$out.stderr"
status=$?
[[ $status -eq 3 ]] || fail "distance-oracle: exit status $status, not 3: $(tail -n 3 "$out.stderr")"
[[ $(find "$out/oracle-failures" -name '*.json' | wc -l) -eq $CASES ]] || fail "distance-oracle: not every case saved"
[[ $(rows "$out" oracle-failed) -eq $CASES ]] || fail "distance-oracle: results.csv: $(cat "$out/results.csv")"
[[ "$(items "$out")" == "$CASES $CASES False" ]] || fail "distance-oracle: report.json items, failures, partial: $(items "$out")"
# docs/scaling.md's recipes tell a finished slice that exits 3 (the oracle failed on some cases) from one that stopped
# early by this text of report.json.
grep -q '"partial": false' "$out/report.json" || fail "distance-oracle: report.json has no '\"partial\": false'"
grep -q "THE ORACLE FAILED on $CASES cases" "$out.stderr" || fail "distance-oracle: stderr: $(cat "$out.stderr")"
# Each failed case listed, in report.json (its saved file, which exists, and the oracle's reason) and in report.md.
python3 - "$out" "$CASES" <<'PY' || fail "distance-oracle: the report does not list every failed case"
import json, os, sys
out, cases = sys.argv[1], int(sys.argv[2])
listed = json.load(open(f"{out}/report.json"))["oracle_failure_cases"]
assert len(listed) == cases, listed
md = open(f"{out}/report.md").read()
assert "## Oracle failures" in md, md[-800:]
for f in listed:
    assert os.path.isfile(os.path.join(out, f["case"])), f
    assert not f["while_shrinking"] and "injected" in f["reason"], f
    assert f"- {f['key']} ([case]({f['case']})): " in md, (f, md[-800:])
PY
GJKREF_INJECT_FAULT=distance-oracle "$GJKREF" "${ARGS[@]}" > "$out.again" 2>&1
status=$?
[[ $status -eq 3 && "$(items "$out")" == "$CASES $CASES False" ]] ||
  fail "distance-oracle, run again: exit status $status, $(items "$out"): $(tail -n 3 "$out.again")"

# reference-double throwing on every case: its answers are "threw", every other implementation's are judged as usual,
# the campaign ends whole, and saving the counterexamples (which runs it again) keeps them in oracle-failures/ as
# gjkref's own failures: exit status 3. Run again, it resumes finished.
out="$WORK/run"
ARGS=(check --impl reference-double,reference-float --family touching --dim 2 --cases $CASES --seed 5 --jobs 1
      --no-progress --out "$out")
threw() { awk -F, 'NR > 1 && $8 == "reference-double" && $9 == "threw" && $13 == "threw"' "$1/results.csv" | wc -l; }
answered() { awk -F, 'NR > 1 && $8 == "reference-float" && $9 == "answered"' "$1/results.csv" | wc -l; }
for run in first again; do
  GJKREF_INJECT_FAULT=run:reference-double "$GJKREF" "${ARGS[@]}" > "$out.$run" 2>&1
  status=$?
  [[ $status -eq 3 ]] || fail "run:reference-double ($run): exit status $status, not 3: $(tail -n 3 "$out.$run")"
  [[ $(threw "$out") -eq $CASES && $(answered "$out") -eq $CASES ]] ||
    fail "run:reference-double ($run): results.csv: $(cat "$out/results.csv")"
  [[ "$(items "$out" | cut -d' ' -f1,3)" == "$CASES False" ]] || fail "run:reference-double ($run): $(items "$out")"
  grep -lq "reference-double (not the oracle) threw: a fault injected at run:reference-double" \
    "$out"/oracle-failures/*.json || fail "run:reference-double ($run): no saved case names the implementation"
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
