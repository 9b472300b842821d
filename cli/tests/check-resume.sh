#!/usr/bin/env bash
# CTest cli.check-resume (docs/comparing.md): a campaign killed with SIGKILL while judging, and again while saving
# counterexamples, loses no counterexample, resumes where it stopped, and ends with the results and the counterexamples
# of an uninterrupted run; a finished campaign run again still reports an oracle failure made while shrinking.
# Usage: check-resume.sh GJKREF WORKDIR PLUGINS (libgjkref-judge-plugins.so)
set -euo pipefail
GJKREF="$1"
WORK="$2"
PLUGINS="$3"
rm -rf "$WORK"
mkdir -p "$WORK"
# What is under test is the campaign's log, not the judge: implementations that answer no depth (the depth oracle,
# which judges a depth, made the runs under ASan in the debug preset twice as slow; so the wrapped reference, a
# plugin answering distances, stands for reference-double). libccd-gjk's misses are the counterexamples saved;
# slow-reference (the reference after 1 ms, clean) makes the campaign last at least 0.5 s however fast the machine, so
# the kill below (after 100 items) lands mid-run.
ARGS=(check --impl wrapped-reference,libccd-gjk,slow-reference --plugin "$PLUGINS" --family touching,scales --dim 3
      --cases 500 --seed 3 --jobs 2 --no-progress)
ITEMS=1000  # 500 cases × 2 families × 1 dimension

# Items logged and counterexamples saved so far in a campaign directory (0 before it has any).
logged() { cat "$1"/shard-*.jsonl 2>/dev/null | wc -l || true; }
saved() { find "$1/counterexamples" -name '*.json' 2>/dev/null | wc -l || true; }
# Every row of results.csv but the time, sorted: what a campaign decided.
decisions() { cut -d, -f1-19 "$1/results.csv" | sort; }
# gjkref check exits 1 when some answer is outside its contract (libccd-gjk has such answers here): expected.
run() { "$@" || [ $? -eq 1 ]; }

run "$GJKREF" "${ARGS[@]}" --out "$WORK/whole" > "$WORK/whole.out"

# Run the campaign in $WORK/cut in its own process group until CONDITION holds (polled often: optimised, the whole
# campaign takes about 2 s, and a loaded machine must not let it finish first), then kill the whole group — the
# campaign, its shards, its shrinking processes and their workers — with SIGKILL.
kill_when() {
  local condition="$1" log="$2" args=("${ARGS[@]}")
  if [ "${PROGRESS:-0}" = 1 ]; then  # the same campaign with its progress line
    args=()
    for a in "${ARGS[@]}"; do [ "$a" = --no-progress ] || args+=("$a"); done
  fi
  setsid "$GJKREF" "${args[@]}" --out "$WORK/cut" > "$log" 2>&1 &
  local leader=$!
  for _ in $(seq 1 3000); do
    if eval "$condition"; then break; fi
    if ! kill -0 "$leader" 2>/dev/null; then break; fi
    sleep 0.01
  done
  kill -KILL -- "-$leader" 2>/dev/null || true
  wait "$leader" 2>/dev/null || true
  # And until the whole group is gone: a shard or worker of the killed campaign still dying holds its directory's lock,
  # and the rerun was refused ("another gjkref check is running in it"; once, in the ASan build beside a campaign).
  for _ in $(seq 1 1000); do
    kill -0 -- "-$leader" 2>/dev/null || break
    sleep 0.01
  done
}
# 1. Killed while judging (counterexamples are chosen and saved once every case is judged).
kill_when '[ "$(logged "$WORK/cut")" -ge 100 ]' "$WORK/cut-1.out"
lines=$(logged "$WORK/cut")
if [ "$lines" -ge "$ITEMS" ]; then
  echo "check-resume: the campaign finished judging before it was killed ($lines items); give it more cases" >&2
  exit 1
fi
echo "killed after judging $lines of $ITEMS items"
# 2. Resumed, and killed again while saving counterexamples (when 2 are saved).
#    With the progress line: its ETA counts from this run's rate (the whole campaign takes seconds; an ETA measured
#    from the first run's start once read 8,429,782 s).
PROGRESS=1 kill_when '[ "$(saved "$WORK/cut")" -ge 2 ]' "$WORK/cut-2.out"
grep -q "resuming the campaign" "$WORK/cut-2.out" || { echo "check-resume: the rerun did not resume" >&2; exit 1; }
grep -qE 'ETA [0-9]+ s' "$WORK/cut-2.out" || { echo "check-resume: no ETA shown after resuming" >&2; exit 1; }
if grep -oE 'ETA [0-9]+ s' "$WORK/cut-2.out" | awk '$2 > 600 { bad = 1 } END { exit !bad }'; then
  echo "check-resume: an absurd ETA after resuming:" >&2; grep ETA "$WORK/cut-2.out" >&2; exit 1
fi
find "$WORK/cut/counterexamples" -name '*.json' | sort > "$WORK/saved-before-resume"
echo "killed again with $(wc -l < "$WORK/saved-before-resume") counterexamples saved"
# 3. Resumed to the end.
run "$GJKREF" "${ARGS[@]}" --out "$WORK/cut" > "$WORK/cut-3.out"
while read -r file; do
  [ -f "$file" ] || { echo "check-resume: lost counterexample $file" >&2; exit 1; }
done < "$WORK/saved-before-resume"
# The same counterexamples as the uninterrupted run, byte for byte.
diff -r "$WORK/whole/counterexamples" "$WORK/cut/counterexamples" > "$WORK/diff" ||
  { echo "check-resume: the resumed campaign saved other counterexamples:" >&2; head -20 "$WORK/diff" >&2; exit 1; }
# Each item once: the resumed run skipped what was logged (a line cut by the kill is dropped and redone).
total=$(cat "$WORK"/cut/shard-*.jsonl | wc -l)
unique=$(cat "$WORK"/cut/shard-*.jsonl | grep -o '"key":"[^"]*"' | sort -u | wc -l)
if [ "$total" -ne "$ITEMS" ] || [ "$unique" -ne "$ITEMS" ]; then
  echo "check-resume: $total log lines, $unique items after resuming; expected $ITEMS of each" >&2
  exit 1
fi
if ! diff <(decisions "$WORK/whole") <(decisions "$WORK/cut") > "$WORK/diff"; then
  echo "check-resume: the resumed campaign decided differently from the whole one:" >&2
  head -20 "$WORK/diff" >&2
  exit 1
fi
# Another campaign in the same directory is refused.
if "$GJKREF" check --impl reference-double --seed 4 --cases 10 --out "$WORK/cut" --no-progress 2> "$WORK/refused"; then
  echo "check-resume: a different campaign was run in a directory holding another one" >&2
  exit 1
fi
grep -q "holds another campaign" "$WORK/refused"
# A case on which the oracle failed while a counterexample was shrunk is a file in oracle-failures/ (the resumed run
# does not shrink that counterexample again): one planted there makes the finished campaign, run again, report it and
# exit with status 3.
mkdir -p "$WORK/whole/oracle-failures"
echo '{}' > "$WORK/whole/oracle-failures/touching-3-0-shrinking-libccd-gjk.json"
status=0
"$GJKREF" "${ARGS[@]}" --out "$WORK/whole" > "$WORK/again.out" 2> "$WORK/again.err" || status=$?
[ "$status" -eq 3 ] || { echo "check-resume: a campaign holding an oracle failure made while shrinking exited $status" >&2; exit 1; }
python3 - "$WORK/whole/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["oracle_failures_while_shrinking"] == 1 and r["oracle_failures"] >= 1, r
PY
grep -q "THE ORACLE FAILED" "$WORK/again.err"
# A campaign started without --seed draws one; the same command run again resumes it with that seed (it used to draw
# another and refuse the directory as "another campaign").
UNSEEDED=(check --impl reference-double --family touching --dim 2 --cases 5 --no-progress --out "$WORK/unseeded")
"$GJKREF" "${UNSEEDED[@]}" > "$WORK/unseeded-1.out"
"$GJKREF" "${UNSEEDED[@]}" > "$WORK/unseeded-2.out" 2> "$WORK/unseeded-2.err" ||
  { echo "check-resume: a campaign started without --seed could not be resumed by the same command:" >&2
    cat "$WORK/unseeded-2.err" >&2; exit 1; }
grep -q "resuming the campaign" "$WORK/unseeded-2.out"
first_seed=$(sed -n 's/^gjkref check: seed \([0-9]*\),.*/\1/p' "$WORK/unseeded-1.out")
second_seed=$(sed -n 's/^gjkref check: seed \([0-9]*\),.*/\1/p' "$WORK/unseeded-2.out")
[ -n "$first_seed" ] && [ "$first_seed" = "$second_seed" ] ||
  { echo "check-resume: the resumed campaign ran with seed '$second_seed', not its own '$first_seed'" >&2; exit 1; }
echo "check-resume: no counterexample lost; $ITEMS items, each once; same decisions as the uninterrupted run"
