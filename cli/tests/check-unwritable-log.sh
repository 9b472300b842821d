#!/usr/bin/env bash
# CTest cli.check-unwritable-log (docs/comparing.md, "Exit status"): a campaign whose log cannot be written ends with
# exit status 3 and the reason, never 0 and never an abort. A shard whose log write fails (here the file size limit,
# with SIGXFSZ ignored so that write returns an error) stopped silently before, and the campaign exited 0 with cases
# unjudged; a log that cannot be read (a directory in its place) made gjkref abort; a report that cannot be written
# was lost without a word, and one whose write failed was left cut short in place of the run before's.
# Usage: check-unwritable-log.sh GJKREF WORKDIR
set -uo pipefail
GJKREF="$1"
WORK="$2"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "check-unwritable-log: $*" >&2; exit 1; }
ARGS=(check --impl reference-double --family touching --dim 2 --seed 1 --jobs 1 --no-progress)
# 1. The shard's log stops growing at 2 KiB: the shard says why, the campaign exits 3.
status=0
(trap '' XFSZ; ulimit -f 2; exec "$GJKREF" "${ARGS[@]}" --cases 60 --out "$WORK/limited") > "$WORK/limited.out" \
  2> "$WORK/limited.err" || status=$?
[ "$status" -eq 3 ] || { cat "$WORK/limited.err" >&2; fail "a shard that could not write its log: exit $status, not 3"; }
grep -q "shard 0 stopped: cannot write .*shard-0.jsonl: .*bytes written" "$WORK/limited.err" ||
  { cat "$WORK/limited.err" >&2; fail "no reason for the shard's stop"; }
# A small campaign run in WORK/NAME, FILE of it then replaced by a directory, and the campaign run again: it must end
# with exit status 3 and a message matching PATTERN.
directory_in_place() { # NAME FILE PATTERN
  local name="$1" file="$2" pattern="$3" status=0
  "$GJKREF" "${ARGS[@]}" --cases 2 --out "$WORK/$name" > /dev/null || fail "the small campaign did not pass"
  rm "$WORK/$name/$file"
  mkdir "$WORK/$name/$file"
  "$GJKREF" "${ARGS[@]}" --cases 2 --out "$WORK/$name" > /dev/null 2> "$WORK/$name.err" || status=$?
  [ "$status" -eq 3 ] || { cat "$WORK/$name.err" >&2; fail "a directory for $file: exit $status, not 3"; }
  grep -q "$pattern" "$WORK/$name.err" || { cat "$WORK/$name.err" >&2; fail "a directory for $file: no reason given"; }
}
# 2. A log that cannot be read: named (it aborted).
directory_in_place unreadable shard-0.jsonl "^gjkref: stopped: "
# 3. A report that cannot be written: named (it was written nowhere, silently, and the campaign exited 0).
directory_in_place reports results.csv "cannot write .*results.csv"
# 4. Reports written past the file size limit (a finished campaign run again rewrites them): exit 3, and the reports of
# the run before are kept whole, not left cut short.
"$GJKREF" "${ARGS[@]}" --cases 3 --out "$WORK/kept" > /dev/null || fail "the small campaign did not pass"
cp "$WORK/kept/report.md" "$WORK/report.md.before"
cp "$WORK/kept/results.csv" "$WORK/results.csv.before"
[ "$(stat -c %s "$WORK/kept/report.md")" -gt 1024 ] || fail "report.md is too small for this test"
status=0
(trap '' XFSZ; ulimit -f 1; exec "$GJKREF" "${ARGS[@]}" --cases 3 --out "$WORK/kept") > /dev/null \
  2> "$WORK/kept.err" || status=$?
[ "$status" -eq 3 ] || { cat "$WORK/kept.err" >&2; fail "reports past the file size limit: exit $status, not 3"; }
cmp -s "$WORK/kept/report.md" "$WORK/report.md.before" || fail "a failed write changed report.md"
cmp -s "$WORK/kept/results.csv" "$WORK/results.csv.before" || fail "a failed write changed results.csv"
echo "check-unwritable-log: each refused with exit status 3"
