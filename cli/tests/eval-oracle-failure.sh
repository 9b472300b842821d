#!/usr/bin/env bash
# CTest cli.eval-oracle-failure (docs/comparing.md, "Exit status"): a case on which an oracle fails keeps its place in
# eval's output — a JSON line with "result": "oracle-failed" and the reason, or a text block saying so — the failure
# is said on stderr, the other cases are evaluated as usual, and the exit status is 3. No valid input is known to make
# the oracle fail (it would be a bug in gjkref or CGAL), so the failure is injected (GJKREF_INJECT_FAULT, cli/fault.hpp):
# into the distance oracle, every case fails; into the depth oracle, only the cases that reach depth (touching or
# overlapping) do. Without the fault every case is evaluated and the status is 0.
# Usage: eval-oracle-failure.sh GJKREF EXAMPLES.json (the examples: separated, touching and overlapping cases)
set -uo pipefail
GJKREF="$1"
CASES="$2"
fail() { echo "eval-oracle-failure: $*"; exit 1; }
count() { grep -c "$1" <<< "$2"; }
total=$(grep -c '"name"' "$CASES")

out=$("$GJKREF" eval --json --impl reference-double "$CASES" 2> /dev/null)
status=$?
[[ $status -eq 0 && $(count '"result":"evaluated"' "$out") -eq $total ]] ||
  fail "without a fault: status $status, $(count '"result":"evaluated"' "$out") of $total cases evaluated"

errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
out=$(GJKREF_INJECT_FAULT=distance-oracle "$GJKREF" eval --json --impl reference-double "$CASES" 2> "$errors")
status=$?
[[ $status -eq 3 ]] || fail "the distance oracle failing: status $status, not 3"
[[ $(wc -l <<< "$out") -eq $total && $(count '"result":"oracle-failed"' "$out") -eq $total ]] ||
  fail "the distance oracle failing: not one oracle-failed line per case: $out"
grep -q '"reason":"THE ORACLE FAILED: a fault injected at distance-oracle' <<< "$out" ||
  fail "the distance oracle failing: the line does not give the reason: $out"
[[ $(grep -c 'THE ORACLE FAILED on case' "$errors") -eq $total ]] || fail "the distance oracle failing: stderr: $(cat "$errors")"

out=$(GJKREF_INJECT_FAULT=distance-oracle "$GJKREF" eval --impl reference-double "$CASES" 2> /dev/null)
status=$?
[[ $status -eq 3 && $(count '^  oracle-failed: THE ORACLE FAILED' "$out") -eq $total ]] ||
  fail "the distance oracle failing, text: status $status: $out"

out=$(GJKREF_INJECT_FAULT=depth-oracle "$GJKREF" eval --json --impl reference-double "$CASES" 2> "$errors")
status=$?
failed=$(count '"result":"oracle-failed"' "$out")
evaluated=$(count '"result":"evaluated"' "$out")
[[ $status -eq 3 && $(wc -l <<< "$out") -eq $total && $failed -ge 1 && $evaluated -ge 1 &&
   $((failed + evaluated)) -eq $total ]] ||
  fail "the depth oracle failing: status $status, $failed oracle-failed and $evaluated evaluated of $total: $out"
grep '"name":"overlapping-cubes-3d"' <<< "$out" | grep '"reason":"THE PENETRATION-DEPTH ORACLE FAILED' |
  grep -q '"result":"oracle-failed"' || fail "the depth oracle failing: overlapping-cubes-3d is not oracle-failed: $out"
grep '"name":"separated-segments-3d"' <<< "$out" | grep -q '"result":"evaluated"' ||
  fail "the depth oracle failing: the separated case is not evaluated: $out"
[[ $(grep -c 'THE PENETRATION-DEPTH ORACLE FAILED on case' "$errors") -eq $failed ]] ||
  fail "the depth oracle failing: stderr: $(cat "$errors")"
echo "eval-oracle-failure: every case kept its line ($total cases)"
