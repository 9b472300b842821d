#!/usr/bin/env bash
# CTest impl.judge-plugins (docs/comparing.md, "Exit status"): a judge nobody can fool. Each plugin of
# libgjkref-judge-plugins.so that is wrong on purpose is reported with answers outside its contract and makes
# `gjkref check` exit 1; the plugin wrapping the double reference unchanged (and its ABI-version-1 twin) is clean and
# exits 0. A plugin that answers nothing (ABI 3) has every case recorded as failed; one that refuses every case has
# nothing judged, and exits 4.
# Usage: judge-plugins.sh GJKREF PLUGIN WORKDIR
set -uo pipefail
GJKREF="$1"
PLUGIN="$2"
WORK="$3"
rm -rf "$WORK"
mkdir -p "$WORK"
failures=0

# check NAME FAMILIES EXPECTED_EXIT [FINDING]: one small campaign on NAME alone (JUDGE_CASES per family and
# dimension, default 10: every plugin wrong on purpose is wrong on 20 or more of them); its exit status must be
# EXPECTED_EXIT, and when FINDING is given, report.json must count at least one answer with that finding outside the
# contract.
check() {
  local name="$1" families="$2" expected="$3" finding="${4:-}"
  "$GJKREF" check --impl "$name" --plugin "$PLUGIN" --family "$families" --cases "${JUDGE_CASES:-10}" --seed 1 --jobs 1 \
    --no-progress --out "$WORK/$name" > "$WORK/$name.out" 2>&1
  local status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "FAIL: $name exited $status, expected $expected"; cat "$WORK/$name.out"; failures=$((failures + 1)); return
  fi
  local wrong
  wrong=$(python3 -c "import json,sys; print(json.load(open('$WORK/$name/report.json'))['implementations']['$name']['disagreements'])")
  if [ -n "$finding" ]; then
    local count
    count=$(python3 -c "import json; print(json.load(open('$WORK/$name/report.json'))['implementations']['$name']['findings'].get('$finding', 0))")
    if [ "$count" -lt 1 ]; then
      echo "FAIL: $name has no '$finding' outside the contract"; cat "$WORK/$name.out"; failures=$((failures + 1)); return
    fi
    echo "ok: $name exits $status with $wrong answers outside the contract ($count $finding)"
  else
    echo "ok: $name exits $status with $wrong answers outside the contract"
  fi
}

# The clean plugins on more cases: a judge that accuses a correct answer is caught on these.
JUDGE_CASES=25 check wrapped-reference random,touching,deep-overlap,tied-facets 0
JUDGE_CASES=25 check wrapped-reference-abi1 random,deep-overlap 0
check always-separated random,deep-overlap,tied-facets 1 separated-while-overlapping
check separated-zero-distance random,deep-overlap,tied-facets 1 separated-while-overlapping
check float-always-separated random,deep-overlap,tied-facets 1 separated-while-overlapping
check shifted-witnesses random,touching 1 witness-outside-contract
check depth-off-ten-percent tied-facets,thin-boxes,posed-boxes 1 depth-outside-contract
check separated-with-depth random 1 depth-outside-contract
check silent-witnesses random 1 missing-witnesses
check untouched-answer-abi2 random,tied-facets 1 separated-while-overlapping
check untouched-answer random 1 failed
check refuses-everything random 4
# An implementation with no answer judged fails the run (4) beside a clean one, and says so; answers outside the
# contract (1) come first.
"$GJKREF" check --impl wrapped-reference,refuses-everything --plugin "$PLUGIN" --family random --cases 10 --seed 1 \
  --jobs 1 --no-progress --out "$WORK/clean-and-refusing" > "$WORK/clean-and-refusing.out" 2>&1
status=$?
if [ "$status" -ne 4 ] || ! grep -q 'no answer judged: refuses-everything (20 refused)' "$WORK/clean-and-refusing.out" ||
   grep -q 'no answer judged: .*wrapped-reference' "$WORK/clean-and-refusing.out"; then
  echo "FAIL: a clean implementation beside one that refuses everything: exit $status (expected 4, naming it alone)"
  cat "$WORK/clean-and-refusing.out"; failures=$((failures + 1))
else
  echo "ok: a clean implementation beside one that refuses everything exits 4 and names it"
fi
# An implementation that refuses its hard pairs (every intersecting one) and answers the rest right passes: a
# refusal is counted, not judged (exit 0). With --fail-on-refusal it fails, exit 5, named with its count.
"$GJKREF" check --impl refuses-intersecting --plugin "$PLUGIN" --family random,touching --cases 10 --seed 1 --jobs 1 \
  --no-progress --out "$WORK/refusing" > "$WORK/refusing.out" 2>&1
status=$?
"$GJKREF" check --impl refuses-intersecting --plugin "$PLUGIN" --family random,touching --cases 10 --seed 1 --jobs 1 \
  --no-progress --fail-on-refusal --out "$WORK/refusing-gated" > "$WORK/refusing-gated.out" 2>&1
gated=$?
if [ "$status" -ne 0 ] || [ "$gated" -ne 5 ] ||
   ! grep -q 'inputs refused (--fail-on-refusal): refuses-intersecting ([1-9][0-9]*)' "$WORK/refusing-gated.out"; then
  echo "FAIL: refusing the hard pairs: exit $status without --fail-on-refusal (expected 0), $gated with it (expected 5)"
  cat "$WORK/refusing-gated.out"; failures=$((failures + 1))
else
  echo "ok: refusing the hard pairs exits 0, and 5 with --fail-on-refusal"
fi
# --fail-on-refusal=NAMES gates only the implementations named, read as --impl reads names: Box2D's legitimate
# refusals (polygons of 3 to 8 vertices) need not fail a gate on one's own. Naming the refusing one, by its name or
# its group, fails (5) and names it alone; naming only the clean one passes (0). A gate that would pass on anything is
# a usage error (2): a name that chooses nothing, a whole name of an implementation left out of the campaign (read as
# that one alone, not as the group of wrapped-reference-abi1), and an implementation given no case (Box2D's, 2D
# only, in a campaign of every implementation with --dim 3; in builds with the peers).
gates=("refuses-intersecting 5 wrapped-reference,refuses-intersecting 2,3"
       "refuses 5 wrapped-reference,refuses-intersecting 2,3"
       "wrapped-reference 0 wrapped-reference,refuses-intersecting 2,3"
       "no-such-implementation 2 wrapped-reference,refuses-intersecting 2,3"
       "wrapped-reference 2 wrapped-reference-abi1,refuses-intersecting 2,3")
listed=$("$GJKREF" list 2> /dev/null || true)
if grep -q 'box2d-polygons' <<< "$listed"; then gates+=("box2d 2 - 3"); fi
for gate in "${gates[@]}"; do
  set -- $gate
  out="$WORK/gate-$1-$2"
  impl=(--impl "$3")
  [ "$3" != - ] || impl=()  # every implementation: the gate is refused before any case runs
  "$GJKREF" check "${impl[@]}" --plugin "$PLUGIN" --family random,touching --dim "$4" --cases 10 --seed 1 --jobs 1 \
    --no-progress --fail-on-refusal="$1" --out "$out" > "$out.out" 2>&1
  status=$?
  if [ "$status" -ne "$2" ] ||
     { [ "$2" -eq 5 ] && { ! grep -q 'inputs refused (--fail-on-refusal): refuses-intersecting ([1-9][0-9]*)$' "$out.out" ||
                          grep -q 'inputs refused.*wrapped-reference' "$out.out"; }; } ||
     { [ "$2" -eq 2 ] && ! grep -q -- "--fail-on-refusal $1: names no implementation of this campaign" "$out.out"; }; then
    echo "FAIL: --impl $3 --dim $4 --fail-on-refusal=$1: exit $status (expected $2)"
    cat "$out.out"; failures=$((failures + 1))
  else
    echo "ok: --impl $3 --dim $4 --fail-on-refusal=$1 exits $2"
  fi
done
# The same gate on a campaign run in slices: gjkref merge takes --fail-on-refusal[=NAMES] as check does (a CI job that
# scales out must be able to gate on refusals too).
for k in 0 1; do
  "$GJKREF" check --impl wrapped-reference,refuses-intersecting --plugin "$PLUGIN" --family random,touching --cases 10 \
    --seed 1 --jobs 1 --no-progress --shard "$k/2" --out "$WORK/slice-$k" > "$WORK/slice-$k.out" 2>&1
done
for gate in "- 0" "= 5" "refuses-intersecting 5" "wrapped-reference 0" "no-such-implementation 2"; do
  set -- $gate
  flag=(--fail-on-refusal="$1")
  [ "$1" != - ] || flag=()
  [ "$1" != = ] || flag=(--fail-on-refusal)
  out="$WORK/merged-$1-$2"
  "$GJKREF" merge "$WORK/slice-0" "$WORK/slice-1" "${flag[@]}" --out "$out" > "$out.out" 2>&1
  status=$?
  if [ "$status" -ne "$2" ] ||
     { [ "$2" -eq 5 ] && ! grep -q 'gjkref merge: inputs refused (--fail-on-refusal): refuses-intersecting ([1-9][0-9]*)$' \
         "$out.out"; } ||
     { [ "$2" -eq 2 ] && ! grep -q -- "--fail-on-refusal $1: names no implementation of this campaign" "$out.out"; }; then
    echo "FAIL: merge ${flag[*]:-without --fail-on-refusal}: exit $status (expected $2)"
    cat "$WORK/slice-0.out" "$WORK/slice-1.out" "$out.out"; failures=$((failures + 1))
  else
    echo "ok: merge ${flag[*]:-without --fail-on-refusal} exits $2"
  fi
done
"$GJKREF" check --impl always-separated,refuses-everything --plugin "$PLUGIN" --family deep-overlap --cases 10 \
  --seed 1 --jobs 1 --no-progress --out "$WORK/wrong-and-refusing" > "$WORK/wrong-and-refusing.out" 2>&1
status=$?
if [ "$status" -ne 1 ]; then
  echo "FAIL: wrong answers beside an implementation that refuses everything: exit $status (expected 1)"
  cat "$WORK/wrong-and-refusing.out"; failures=$((failures + 1))
else
  echo "ok: wrong answers beside an implementation that refuses everything exit 1"
fi
# A number an implementation never reported is null in report.json, not 0 ("exact"): always-separated reports no depth
# and no normal, so those are null; its time per query was measured, so it is not.
nulls=$(python3 -c "
import json
r = json.load(open('$WORK/always-separated/report.json'))['implementations']['always-separated']
print(r['depth_error']['median'] is None and r['depth_error']['max'] is None and r['max_normal_error'] is None,
      r['median_seconds_per_query'] is not None)")
if [ "$nulls" != "True True" ]; then
  echo "FAIL: always-separated's unmeasured numbers are not null in report.json (or its time is): $nulls"
  failures=$((failures + 1))
fi
# An answer left untouched is no answer (ABI 3): every case is recorded as failed, the separated ones too, where the
# zeroed answer of versions 1 and 2 read as a right "separated".
untouched=$(python3 -c "
import json
r = json.load(open('$WORK/untouched-answer/report.json'))['implementations']['untouched-answer']
print(r['cases'], r['findings'].get('failed', 0), r['disagreements'])")
read -r cases failed wrong <<< "$untouched"
if [ "$cases" -eq 0 ] || [ "$failed" -ne "$cases" ] || [ "$wrong" -ne "$cases" ]; then
  echo "FAIL: untouched-answer: $cases cases, $failed recorded as failed, $wrong outside the contract (all expected)"
  failures=$((failures + 1))
fi
if ! grep -rq "returned without answering" "$WORK/untouched-answer/"; then
  echo "FAIL: untouched-answer: no result says it returned without answering"
  failures=$((failures + 1))
fi
abi2=$(python3 -c "
import json
r = json.load(open('$WORK/untouched-answer-abi2/report.json'))['implementations']['untouched-answer-abi2']
print(r['cases'], r['disagreements'])")
read -r cases wrong <<< "$abi2"
if [ "$wrong" -ge "$cases" ]; then
  echo "FAIL: untouched-answer-abi2: $wrong of $cases outside the contract; its zeroed answers read as 'separated'"
  failures=$((failures + 1))
fi
# A counterexample of a plugin's implementation says how to replay it, plugin included, and describes the shrunk case.
note=$(grep -rh '"note"' "$WORK/always-separated/counterexamples" | head -1)
if ! grep -q -- "--plugin $PLUGIN FILE" <<< "$note" || ! grep -q "on this case the oracle says" <<< "$note"; then
  echo "FAIL: the counterexample note does not name the plugin or the shrunk case's verdict: $note"
  failures=$((failures + 1))
fi
# report.md groups the counterexamples by implementation and finding, each with the exact answer and what came back.
if ! grep -q '^### always-separated$' "$WORK/always-separated/report.md" ||
   ! grep -q '^\*\*separated-while-overlapping\*\*$' "$WORK/always-separated/report.md" ||
   ! grep -q ': exact: overlapping, d = 0, PD = .*; answered: separated' "$WORK/always-separated/report.md"; then
  echo "FAIL: report.md does not list the counterexamples by implementation and finding with their reasons"
  failures=$((failures + 1))
fi
if [ "$failures" -gt 0 ]; then echo "$failures checks failed"; exit 1; fi
echo "judge-plugins: all checked"
