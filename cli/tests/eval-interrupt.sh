#!/usr/bin/env bash
# CTest cli.eval-interrupt (docs/comparing.md, "Exit status"): SIGTERM sent to eval's process alone — what a supervisor
# or a CI runner sends — while a plugin hangs in its worker ends eval (exit 143) and leaves no process behind: the
# case's process and the worker die with it, not at the end of --time-limit.
# Usage: eval-interrupt.sh GJKREF MISBEHAVING_PLUGIN CASE WORKDIR
set -euo pipefail
GJKREF="$1"
PLUGIN="$2"
CASE="$3"
WORK="$4"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "eval-interrupt: $*" >&2; exit 1; }
# Its own process group (setsid), so that what is left of it can be listed. The case hangs the plugin; 300 s would
# outlast the test.
setsid "$GJKREF" eval --impl misbehaving --plugin "$PLUGIN" --time-limit 300 "$CASE" > "$WORK/out" 2> "$WORK/err" &
LEADER=$!
# Until the worker runs: eval, the case's process and the worker.
for _ in $(seq 1 200); do
  [ "$(pgrep -g "$LEADER" | wc -l)" -ge 3 ] && break
  sleep 0.05
done
[ "$(pgrep -g "$LEADER" | wc -l)" -ge 3 ] || fail "the worker never started: $(ps -o pid=,args= -g "$LEADER")"
sleep 0.2
kill -TERM "$LEADER"
status=0
wait "$LEADER" || status=$?
[ "$status" -eq 143 ] || fail "exit status $status after SIGTERM, expected 143"
for _ in $(seq 1 40); do
  pgrep -g "$LEADER" > /dev/null || break
  sleep 0.05
done
if pgrep -g "$LEADER" > /dev/null; then
  left=$(ps -o pid=,args= -g "$LEADER")
  pkill -KILL -g "$LEADER" || true
  fail "processes of the interrupted eval are left: $left"
fi
echo "eval-interrupt: nothing left running"
