#!/usr/bin/env bash
# CTest cli.check-unwritable-log (docs/comparing.md, "Exit status"): a campaign whose log cannot be written ends with
# exit status 3 and the reason, never 0 and never an abort. A shard whose log write fails (here the file size limit,
# with SIGXFSZ ignored so that write returns an error) stopped silently before, and the campaign exited 0 with cases
# unjudged; a log that cannot be read (a directory in its place) made gjkref abort; a report that cannot be written
# was lost without a word.
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
# 2. A log that cannot be read: named, exit 3.
"$GJKREF" "${ARGS[@]}" --cases 2 --out "$WORK/unreadable" > /dev/null || fail "the small campaign did not pass"
rm "$WORK/unreadable/shard-0.jsonl"
mkdir "$WORK/unreadable/shard-0.jsonl"
status=0
"$GJKREF" "${ARGS[@]}" --cases 2 --out "$WORK/unreadable" > /dev/null 2> "$WORK/unreadable.err" || status=$?
[ "$status" -eq 3 ] || { cat "$WORK/unreadable.err" >&2; fail "an unreadable log: exit $status, not 3"; }
grep -q "^gjkref: stopped: " "$WORK/unreadable.err" || { cat "$WORK/unreadable.err" >&2; fail "no reason given"; }
# 3. A report that cannot be written (a directory where results.csv goes): named, exit 3 (it was written nowhere,
#    silently, and the campaign exited 0).
"$GJKREF" "${ARGS[@]}" --cases 2 --out "$WORK/reports" > /dev/null || fail "the small campaign did not pass"
rm "$WORK/reports/results.csv"
mkdir "$WORK/reports/results.csv"
status=0
"$GJKREF" "${ARGS[@]}" --cases 2 --out "$WORK/reports" > /dev/null 2> "$WORK/reports.err" || status=$?
[ "$status" -eq 3 ] || { cat "$WORK/reports.err" >&2; fail "an unwritable report: exit $status, not 3"; }
grep -q "cannot write .*results.csv" "$WORK/reports.err" || { cat "$WORK/reports.err" >&2; fail "no reason given"; }
echo "check-unwritable-log: each refused with exit status 3"
