#!/usr/bin/env bash
# CTest cli.check-bad-arguments (docs/comparing.md, "Exit status"): an output directory gjkref cannot use is named up
# front, and every usage error exits 2 with a message — none is an uncaught exception, a silent wrap-around or a
# campaign run on what was not asked for.
# Usage: check-bad-arguments.sh GJKREF WORKDIR
set -uo pipefail
GJKREF="$1"
WORK="$2"
rm -rf "$WORK"
mkdir -p "$WORK"
touch "$WORK/a-file"
failures=0
# refused EXPECTED_MESSAGE ARGUMENT...: gjkref check with these arguments exits 2 and says EXPECTED_MESSAGE.
refused() {
  local message="$1"
  shift
  local status=0
  "$GJKREF" check --cases 1 --no-progress "$@" > "$WORK/out" 2>&1 || status=$?
  if [ "$status" -ne 2 ] || ! grep -q -- "$message" "$WORK/out"; then
    echo "FAIL: check $* exited $status, expected 2 with '$message':"; cat "$WORK/out"; failures=$((failures + 1))
  else
    echo "ok: $* -> $(head -1 "$WORK/out")"
  fi
}
# --cases beyond an int: said so, with the range (it said only "Could not convert").
status=0
"$GJKREF" check --cases 3000000000 --impl reference-double --out "$WORK/many" > "$WORK/out" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q -- "--cases is a whole number from 1 to 2147483647" "$WORK/out"; then
  echo "FAIL: --cases 3000000000 exited $status: $(cat "$WORK/out")"; failures=$((failures + 1))
fi
refused "no directory named" --impl reference-double --out ""
refused "exists and is not a directory" --impl reference-double --out "$WORK/a-file"
refused "cannot be created" --impl reference-double --out /proc/gjkref-cannot-be-here
# An existing directory that cannot be written to. Root writes anywhere, so as root the campaign runs as nobody
# (setpriv) on a directory only root may write; otherwise the directory is made read-only.
mkdir -p "$WORK/read-only"
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
  chmod 755 "$WORK/read-only"
  status=0
  setpriv --reuid=65534 --regid=65534 --clear-groups "$GJKREF" check --cases 1 --no-progress --impl reference-double \
    --out "$WORK/read-only" > "$WORK/out" 2>&1 || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "cannot be written to" "$WORK/out"; then
    echo "FAIL: check --out (a directory it cannot write) exited $status:"; cat "$WORK/out"; failures=$((failures + 1))
  else
    echo "ok: --out a directory it cannot write -> $(head -1 "$WORK/out")"
  fi
else
  chmod 555 "$WORK/read-only"
  refused "cannot be written to" --impl reference-double --out "$WORK/read-only"
fi
# A directory holding files of someone else's and no campaign.json: the reports would overwrite them.
mkdir -p "$WORK/used"
echo "notes" > "$WORK/used/report.md"
refused "holds report.md but no campaign.json" --impl reference-double --out "$WORK/used"
grep -q "^notes$" "$WORK/used/report.md" || { echo "FAIL: report.md was overwritten"; failures=$((failures + 1)); }
# A directory another run is writing to (its lock held, here by flock(1)): refused, not run beside it. Two runs on one
# --out logged every case twice and overwrote each other's counterexamples and reports.
mkdir -p "$WORK/busy"
status=0
flock "$WORK/busy/.gjkref-lock" "$GJKREF" check --impl reference-double --family touching --dim 2 --cases 2 --seed 1 \
  --jobs 1 --no-progress --out "$WORK/busy" > "$WORK/busy.out" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q "another gjkref check is running in it" "$WORK/busy.out"; then
  echo "FAIL: a run on a directory whose lock is held exited $status: $(cat "$WORK/busy.out")"; failures=$((failures + 1))
fi
# Once the lock is free, the same directory takes a campaign, and a second run resumes it.
for run in 1 2; do
  "$GJKREF" check --impl reference-double --family touching --dim 2 --cases 2 --seed 1 --jobs 1 --no-progress \
    --out "$WORK/busy" > "$WORK/busy-$run.out" 2>&1 ||
    { echo "FAIL: run $run on the freed directory exited $?: $(cat "$WORK/busy-$run.out")"; failures=$((failures + 1)); }
done
refused "a time limit is a number of seconds" --impl reference-double --out "$WORK/c" --time-limit nan
refused "a time limit is a number of seconds" --impl reference-double --out "$WORK/c" --time-limit 0
refused "a time limit is a number of seconds" --impl reference-double --out "$WORK/c" --oracle-time-limit nan
refused "a seed is a whole number" --impl reference-double --out "$WORK/c" --seed -1
# One past 2^64 − 1, and far past it: refused, not clamped to 2^64 − 1 (CLI11's conversion would clamp).
refused "a seed is a whole number from 0 to 18446744073709551615" --impl reference-double --out "$WORK/c" \
  --seed 18446744073709551616
refused "a seed is a whole number from 0 to 18446744073709551615" --impl reference-double --out "$WORK/c" \
  --seed 99999999999999999999
refused "dim" --impl reference-double --out "$WORK/c" --dim 4
refused "unknown family 'nosuch'" --impl reference-double --out "$WORK/c" --family nosuch
refused "unknown implementation 'nosuch'" --out "$WORK/c" --impl nosuch
refused "a memory limit is a whole number" --impl reference-double --out "$WORK/c" --memory-limit -1
refused "a memory limit is a whole number" --impl reference-double --out "$WORK/c" --memory-limit lots
# --jobs past kMaxJobs (a mistyped 200000 forked shards for minutes, past SIGTERM), and 0.
refused "--jobs: a whole number from 1 to 1024" --impl reference-double --out "$WORK/c" --jobs 200000
refused "--jobs: a whole number from 1 to 1024" --impl reference-double --out "$WORK/c" --jobs 1025
refused "--jobs: a whole number from 1 to 1024" --impl reference-double --out "$WORK/c" --jobs 0
# A slice without a seed would draw cases of its own; a list that names nothing is not "all".
refused "--shard needs --seed" --impl reference-double --out "$WORK/c" --shard 0/2
refused "--family names nothing" --impl reference-double --out "$WORK/c" --family ""
refused "--impl names nothing" --impl "," --out "$WORK/c"
# Nothing to judge: a 2D-only implementation asked for in 3D.
refused "--impl box2d-distance: it answers none of the dimensions" --impl box2d-distance --dim 3 --out "$WORK/c"
refused "--impl box2d: its implementations answer none of the dimensions" --impl box2d --dim 3 --out "$WORK/c"
# But a 2D plugin run whole beside a named 3D implementation is not refused: it answers in its own dimensions.
PLUGIN="$(dirname "$GJKREF")/../impl/libgjkref-example-plugin.so"
[ -f "$PLUGIN" ] || { echo "FAIL: the example plugin is not at $PLUGIN"; failures=$((failures + 1)); }
"$GJKREF" check --impl reference-double --plugin "$PLUGIN" --dim 3 --family touching --cases 2 --seed 1 --no-progress \
  --out "$WORK/plugin-3d" > "$WORK/out" 2>&1 ||
  { echo "FAIL: a 2D plugin beside --impl reference-double --dim 3"; cat "$WORK/out"; failures=$((failures + 1)); }
# A name given twice counts once: the campaign's record and its logs hold each case once.
"$GJKREF" check --impl reference-double,reference-double --family touching,touching --dim 2,2 --dim 2 --cases 3 \
  --seed 1 --no-progress --out "$WORK/twice" > "$WORK/out" 2>&1 ||
  { echo "FAIL: a campaign with names given twice"; cat "$WORK/out"; failures=$((failures + 1)); }
if ! python3 -c "import json,sys; c=json.load(open('$WORK/twice/campaign.json')); sys.exit(0 if c['dims']==[2] and c['families']==['touching'] and c['implementations']==['reference-double'] else 1)" ||
   [ "$(cat "$WORK"/twice/shard-*.jsonl | wc -l)" -ne 3 ]; then
  echo "FAIL: names given twice were run twice:"; cat "$WORK/twice/campaign.json"; failures=$((failures + 1))
fi
# Standard output that cannot be written is an error, not a clean run whose table was lost.
CASE_FILE="$(dirname "$0")/../../cases/examples/touching-squares-2d.json"
for command in "eval --impl reference-exact $CASE_FILE" "list" \
               "check --impl reference-double --family touching --dim 2 --cases 2 --seed 1 --no-progress --out $WORK/full"; do
  status=0
  # shellcheck disable=SC2086
  "$GJKREF" $command > /dev/full 2> "$WORK/out" || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "cannot write to standard output" "$WORK/out"; then
    echo "FAIL: $command > /dev/full exited $status:"; cat "$WORK/out"; failures=$((failures + 1))
  fi
done
# A plugin named by a bare file name in the current directory is that file.
cp "$PLUGIN" "$WORK/libmine.so"
(cd "$WORK" && "$GJKREF" list --plugin libmine.so > "$WORK/out" 2>&1) && grep -q "example" "$WORK/out" ||
  { echo "FAIL: --plugin libmine.so in the current directory"; cat "$WORK/out"; failures=$((failures + 1)); }
# A first word that is no subcommand is named.
status=0
"$GJKREF" nosuch > "$WORK/out" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q "unknown subcommand 'nosuch'" "$WORK/out"; then
  echo "FAIL: gjkref nosuch exited $status:"; cat "$WORK/out"; failures=$((failures + 1))
fi
# eval given a directory says so (it read as an empty, malformed case file).
status=0
"$GJKREF" eval --impl reference-double "$WORK" > "$WORK/out" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q "is a directory" "$WORK/out"; then
  echo "FAIL: eval of a directory exited $status:"; cat "$WORK/out"; failures=$((failures + 1))
fi
# eval given an empty argument says that it names no file (the file's error had no name to give).
status=0
"$GJKREF" eval --impl reference-double '' > "$WORK/out" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q "an empty argument ('') names no case file" "$WORK/out"; then
  echo "FAIL: eval '' exited $status:"; cat "$WORK/out"; failures=$((failures + 1))
fi
# eval takes the same time limit, validated the same way.
CASE="$(dirname "$0")/../../cases/examples/touching-squares-2d.json"
status=0
"$GJKREF" eval --impl reference-exact --time-limit nan "$CASE" > "$WORK/out" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q "a time limit is a number of seconds" "$WORK/out"; then
  echo "FAIL: eval --time-limit nan exited $status"; cat "$WORK/out"; failures=$((failures + 1))
fi
"$GJKREF" eval --impl reference-exact --time-limit 2 "$CASE" > "$WORK/out" 2>&1 ||
  { echo "FAIL: eval --time-limit 2"; cat "$WORK/out"; failures=$((failures + 1)); }
"$GJKREF" eval --impl libccd --memory-limit 1024 "$CASE" > "$WORK/out" 2>&1 ||
  { echo "FAIL: eval --memory-limit 1024"; cat "$WORK/out"; failures=$((failures + 1)); }
# The largest seed is a seed, run as given.
"$GJKREF" check --impl reference-double --family touching --dim 2 --cases 1 --no-progress --out "$WORK/largest-seed" \
  --seed 18446744073709551615 > "$WORK/out" 2>&1 && grep -q "seed 18446744073709551615," "$WORK/out" ||
  { echo "FAIL: --seed 18446744073709551615"; cat "$WORK/out"; failures=$((failures + 1)); }
if ! "$GJKREF" --version | grep -qE '^gjkref [0-9.]* \(plugin ABI [0-9]+.*\), source ([0-9a-f]{12}|unknown)$'; then
  echo "FAIL: gjkref --version"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] || { echo "$failures checks failed"; exit 1; }
echo "check-bad-arguments: all refused"
