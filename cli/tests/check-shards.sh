#!/usr/bin/env bash
# CTest cli.check-shards (docs/scaling.md): a campaign run as two slices (check --shard K/N, one job each) and merged
# (gjkref merge) gives the report of the same campaign run at once with two jobs: the same tables, results, logs and
# counterexamples, byte for byte but for the time each query took; one job saves the same counterexamples. And merge refuses what is not one campaign's slices.
# Usage: check-shards.sh GJKREF WORKDIR
set -euo pipefail
GJKREF="$1"
WORK="$2"
rm -rf "$WORK"
mkdir -p "$WORK"
# libccd-gjk misses touching pairs: counterexamples are saved, so their sets are compared too.
ARGS=(check --impl reference-double,libccd-gjk --family touching,scales --dim 2,3 --cases 50 --seed 3 --no-progress)
# gjkref check and merge exit 1 when some answer is outside its contract: expected here.
run() { "$@" || [ $? -eq 1 ]; }
fail() { echo "check-shards: $*" >&2; exit 1; }

run "$GJKREF" "${ARGS[@]}" --jobs 2 --out "$WORK/whole" > "$WORK/whole.out"
run "$GJKREF" "${ARGS[@]}" --jobs 1 --shard 0/2 --out "$WORK/slice-0" > "$WORK/slice-0.out"
run "$GJKREF" "${ARGS[@]}" --jobs 1 --shard 1/2 --out "$WORK/slice-1" > "$WORK/slice-1.out"
grep -q "Slice 1/2" "$WORK/slice-1/report.md" || fail "a slice's report does not say it is a slice"
run "$GJKREF" merge --out "$WORK/merged" "$WORK/slice-1" "$WORK/slice-0" > "$WORK/merged.out"

# The time columns differ from run to run: the last cell of the tables' rows, results.csv's seconds (column 20), the logs'
# "seconds" (a named field in a full row, the fourth element of a compact one) and report.json's median times.
# Everything else must be the same.
untimed_md() { sed -E 's/ [^|]* \|$/ |/' "$1"; }
untimed_log() { cat "$1"/shard-*.jsonl | sed -E 's/"seconds":[^,}]*//g; s/(\["[^"]*","[^"]*",(true|false)),[^],]*/\1/g' | sort; }
diff <(untimed_md "$WORK/whole/report.md") <(untimed_md "$WORK/merged/report.md") || fail "report.md differs"
diff <(grep -v median_seconds "$WORK/whole/report.json") <(grep -v median_seconds "$WORK/merged/report.json") ||
  fail "report.json differs"
diff <(cut -d, -f1-19 "$WORK/whole/results.csv") <(cut -d, -f1-19 "$WORK/merged/results.csv") || fail "results.csv differs"
diff <(untimed_log "$WORK/whole") <(untimed_log "$WORK/merged") || fail "the logs differ"
diff "$WORK/whole/campaign.json" "$WORK/merged/campaign.json" || fail "campaign.json differs"
diff -r "$WORK/whole/counterexamples" "$WORK/merged/counterexamples" || fail "the counterexamples differ"
saved=$(find "$WORK/merged/counterexamples" -name '*.json' | wc -l)
[ "$saved" -ge 2 ] || fail "only $saved counterexamples: nothing to compare"
# A slice killed after its last case was logged but before its counterexamples were saved (its logs whole, its
# counterexamples and reports not written): merge says it did not finish, marks the report partial and exits 3
# (it merged as complete, with fewer counterexamples). Rerun, the slice resumes and saves them; merged again, the
# campaign's counterexamples are whole.
[ -n "$(find "$WORK/slice-1/counterexamples" -name '*.json' 2>/dev/null)" ] || fail "slice 1 saved no counterexample"
cp -r "$WORK/slice-1" "$WORK/slice-1-cut"
rm -rf "$WORK/slice-1-cut/counterexamples" "$WORK/slice-1-cut"/report.* "$WORK/slice-1-cut/results.csv" \
  "$WORK/slice-1-cut/junit.xml"
status=0
"$GJKREF" merge --out "$WORK/merged-cut" "$WORK/slice-0" "$WORK/slice-1-cut" > "$WORK/merged-cut.out" \
  2> "$WORK/merged-cut.err" || status=$?
[ "$status" -eq 3 ] || fail "a merge with a slice that saved no counterexample exited $status, expected 3"
grep -q "slice 1/2 did not finish: [0-9]* of its counterexamples are not saved" "$WORK/merged-cut.err" ||
  fail "merge does not say the slice did not finish: $(cat "$WORK/merged-cut.err")"
grep -q '^\*\*Partial:\*\*' "$WORK/merged-cut/report.md" || fail "the merged report is not marked partial"
run "$GJKREF" "${ARGS[@]}" --jobs 1 --shard 1/2 --out "$WORK/slice-1-cut" > "$WORK/slice-1-rerun.out"
run "$GJKREF" merge --out "$WORK/merged-again" "$WORK/slice-0" "$WORK/slice-1-cut" > "$WORK/merged-again.out"
diff -r "$WORK/whole/counterexamples" "$WORK/merged-again/counterexamples" ||
  fail "the counterexamples differ after the slice was rerun"

# One job saves what two jobs and two slices save: the first 3 of each kind in the campaign's order, whatever the
# number of processes (some kind here has 3, so the count per kind is compared too).
run "$GJKREF" "${ARGS[@]}" --jobs 1 --out "$WORK/one-job" > "$WORK/one-job.out"
diff -r "$WORK/whole/counterexamples" "$WORK/one-job/counterexamples" || fail "one job saved other counterexamples"
most=$(find "$WORK/one-job/counterexamples" -name '*.json' | sed -E 's/-[0-9]+\.json$//' | sort | uniq -c | sort -rn | head -1 | awk '{print $1}')
[ "$most" -eq 3 ] || fail "no kind with 3 counterexamples (at most $most): the count per kind is not shown"

# What the two-job run wrote, checked against what it logged (docs/comparing.md, "Balance", "Output and resuming"):
# - balance: each shard got close to half of every family and dimension (a deal of a fixed shuffle; dealing in turn
#   gave one shard every 2D case);
# - compact logs: an answer is logged as a full object only when outside its contract or a miss; others are arrays;
# - results.csv: every reported distance at full precision (the very double logged) and a within_contract column;
# - counterexamples: the note's verdict is the oracle's on the shrunk case (gjkref eval says the same), and a point
#   the shrunk case repeats is one the failure needs (without it, the implementation no longer fails).
python3 - "$WORK/whole" "$GJKREF" <<'PY' || fail "the two-job run's output"
import collections, csv, glob, json, os, re, subprocess, sys
d, gjkref = sys.argv[1], sys.argv[2]
per_shard = collections.defaultdict(collections.Counter)
logged = {}
for log in sorted(glob.glob(os.path.join(d, "shard-*.jsonl"))):
    for line in open(log):
        j = json.loads(line)
        per_shard[log][(j["family"], j["dim"])] += 1
        for name, row in j.get("results", {}).items():
            logged[(j["key"], name)] = row
            if isinstance(row, dict):
                assert not row["within_contract"] or row["finding"].startswith("separated-while"), row
assert len(per_shard) == 2, per_shard.keys()
for group in per_shard[next(iter(per_shard))]:
    counts = [per_shard[log][group] for log in per_shard]
    assert min(counts) >= 0.35 * sum(counts), (group, counts)
assert any(isinstance(r, list) for r in logged.values()), "no compact row"
rows = list(csv.DictReader(open(os.path.join(d, "results.csv"))))
assert "within_contract" in rows[0], rows[0].keys()
exact = 0
for r in rows:
    row = logged[(f'{r["family"]}/{r["dim"]}/{r["index"]}', r["implementation"])]
    distance = row.get("reported_distance") if isinstance(row, dict) else (row[6] if len(row) > 6 else None)
    if distance is not None and r["reported_distance"]:
        assert float(r["reported_distance"]) == distance, (r, distance)
        exact += 1
assert exact > 0, "no reported distance to compare"
# The detail: on every row as logged (compact rows carry it last), in results.csv, and counted in report.json per
# implementation (report.md's "How the reference answered"); the reference gives one on every answer it was judged on.
details = {}
for r in rows:
    row = logged[(f'{r["family"]}/{r["dim"]}/{r["index"]}', r["implementation"])]
    said = row.get("detail") if isinstance(row, dict) else (row[14] if len(row) > 14 else None)
    assert r["detail"] == (said or ""), (r, said)
    if r["finding"] != "not-judged" and r["detail"]:
        details.setdefault(r["implementation"], collections.Counter())[r["detail"]] += 1
    if r["implementation"] == "reference-double" and r["status"] == "answered":
        assert r["detail"], r
report = json.load(open(os.path.join(d, "report.json")))
for name, summary in report["implementations"].items():
    assert collections.Counter(summary.get("details", {})) == details.get(name, collections.Counter()), (name, summary.get("details"))
assert details["reference-double"], "no detail counted"
assert "How the reference answered" in open(os.path.join(d, "report.md")).read()
files = sorted(glob.glob(os.path.join(d, "counterexamples", "*", "*", "*.json")))
assert files
def evaluate(case_json, implementation):
    path = os.path.join(d, "probe.json")
    json.dump(case_json, open(path, "w"))
    out = subprocess.run([gjkref, "eval", "--json", "--impl", implementation, path], capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[0])
for f in files:
    implementation = f.split(os.sep)[-3]
    shrunk = json.load(open(f))["cases"][0]
    said = re.search(r"on this case the oracle says (\w+)", shrunk["note"]).group(1)
    shrunk_case = {"format": "gjkref-case/1", "name": shrunk["name"], "dim": shrunk["dim"], "a": shrunk["a"],
                   "b": shrunk["b"]}
    assert evaluate(shrunk_case, implementation)["oracle"]["verdict"] == said, (f, said)
    for shape in ("a", "b"):
        points = shrunk[shape]["points"]
        for i, p in enumerate(points):
            if points.index(p) != i:  # a repeat: the failure must need it
                fewer = json.loads(json.dumps(shrunk_case))
                del fewer[shape]["points"][i]
                result = evaluate(fewer, implementation)["results"][implementation]
                assert result["agrees"] and not result["within_band"], (f, shape, i, result)
print(f"check-shards: balanced, compact, {exact} distances exact in results.csv, {len(files)} notes checked")
PY

# One slice alone: a partial report (report.md and report.json) that names the missing slice.
partial_json() { python3 -c "import json,sys; sys.exit(0 if json.load(open('$1/report.json'))['partial'] else 1)"; }
# A partial campaign is no verdict: merge exits 3 (a CI job gated on it fails), with the report written all the same.
partial_merge() {
  local status=0
  "$@" > /dev/null || status=$?
  [ "$status" -eq 3 ] || fail "exit $status, not 3, for the partial merge: $*"
}
partial_merge "$GJKREF" merge --out "$WORK/half" "$WORK/slice-0" 2> "$WORK/half.err"
grep -q '^\*\*Partial:\*\* .*missing: 1/2' "$WORK/half/report.md" || fail "a partial merge does not name the missing slice"
grep -q "the report is partial" "$WORK/half.err" || fail "a partial merge does not say so"
partial_json "$WORK/half" || fail "report.json of a merge with a slice missing is not marked partial"
! partial_json "$WORK/merged" || fail "report.json of the complete merge is marked partial"
# Missing slices are named as runs: one slice of 1,000 (of 1,000 cases) merged alone names the other 999 in one run,
# not one by one.
run "$GJKREF" check --impl reference-double --family touching --dim 2 --cases 1000 --seed 4 --no-progress \
  --shard 1/1000 --out "$WORK/thin" > /dev/null
partial_merge "$GJKREF" merge --out "$WORK/thin-merged" "$WORK/thin" 2> /dev/null
grep -q '^\*\*Partial:\*\* .*missing: 0/1000 2-999/1000' "$WORK/thin-merged/report.md" ||
  fail "missing slices are not named as runs: $(grep -m1 Partial "$WORK/thin-merged/report.md" | cut -c1-200)"
# A slice's file that cannot be copied (here a pipe among its counterexamples) stops the merge with exit status 3, as a
# file gjkref cannot read or write does, and leaves the output directory empty (it was left half-filled, and a rerun
# was refused as "not empty"); once the cause is mended the same command merges.
rm -rf "$WORK/piped" "$WORK/piped-merge" && cp -r "$WORK/slice-1" "$WORK/piped"
mkdir -p "$WORK/piped/counterexamples" && mkfifo "$WORK/piped/counterexamples/a-pipe"
status=0
"$GJKREF" merge --out "$WORK/piped-merge" "$WORK/slice-0" "$WORK/piped" > /dev/null 2> "$WORK/piped.err" || status=$?
[ "$status" -eq 3 ] || fail "a merge that cannot copy a file: exit $status, not 3"
grep -q "gjkref merge: stopped: " "$WORK/piped.err" || fail "a merge that cannot copy a file does not say so"
[ -z "$(ls -A "$WORK/piped-merge")" ] || fail "a merge that could not copy a file left $(ls -A "$WORK/piped-merge")"
rm "$WORK/piped/counterexamples/a-pipe"
run "$GJKREF" merge --out "$WORK/piped-merge" "$WORK/slice-0" "$WORK/piped" > /dev/null ||
  fail "the merge, once the pipe is gone, did not run"
# Slices beyond the number of cases are dealt none: without them the merge is whole, and the reports say so as the
# exit status does (they said "partial", naming them, while merge exited as for a whole campaign).
for k in 0 1 2; do
  run "$GJKREF" check --impl reference-double --family touching --dim 2 --cases 3 --seed 4 --no-progress \
    --shard $k/5 --out "$WORK/few-$k" > /dev/null
done
status=0
"$GJKREF" merge --out "$WORK/few-merged" "$WORK/few-0" "$WORK/few-1" "$WORK/few-2" > /dev/null 2>&1 || status=$?
[ "$status" -le 1 ] || fail "a merge of every slice that was dealt a case: exit $status"
! partial_json "$WORK/few-merged" || fail "a merge of every slice that was dealt a case is marked partial"
! grep -q '^\*\*Partial' "$WORK/few-merged/report.md" || fail "report.md of a whole merge says partial"
# Every slice, one of them cut short (interrupted, or stopped by a scheduler's time limit): partial too, and named.
# (slice-1-cut exists from the test above: copied onto it, cp -r would nest the copy inside it.)
rm -rf "$WORK/slice-1-cut"
cp -r "$WORK/slice-1" "$WORK/slice-1-cut"
head -n 60 "$WORK/slice-1/shard-1.jsonl" > "$WORK/slice-1-cut/shard-1.jsonl"
partial_merge "$GJKREF" merge --out "$WORK/cut" "$WORK/slice-0" "$WORK/slice-1-cut" 2> "$WORK/cut.err"
grep -q '^\*\*Partial:\*\* .*slice 1/2 did not finish (60 of its 100 cases' "$WORK/cut/report.md" ||
  fail "a merge with an unfinished slice does not say so in report.md"
partial_json "$WORK/cut" || fail "report.json of a merge with an unfinished slice is not marked partial"

# Refused, with exit status 2: a slice named twice, a slice of another campaign, a directory that is not a slice, a
# non-empty output directory or one inside a slice, an empty argument, a log that is not a file, and slices that are
# not K/N with 0 <= K < N.
refused() {
  local status=0
  "$@" > /dev/null 2> "$WORK/refused.err" || status=$?
  [ "$status" -eq 2 ] || fail "exit $status, not 2, for: $*"
}
refused "$GJKREF" merge --out "$WORK/twice" "$WORK/slice-0" "$WORK/slice-0"
grep -q "named twice" "$WORK/refused.err" || fail "no reason for a slice named twice"
run "$GJKREF" check --impl reference-double --family touching --dim 2 --cases 5 --seed 4 --no-progress --shard 1/2 \
  --out "$WORK/other" > /dev/null
refused "$GJKREF" merge --out "$WORK/mixed" "$WORK/slice-0" "$WORK/other"
grep -q "another campaign" "$WORK/refused.err" || fail "no reason for a slice of another campaign"
refused "$GJKREF" merge --out "$WORK/unsliced" "$WORK/whole"
# A slice whose campaign.json was edited by hand into nonsense is refused too, not a crash.
cp -r "$WORK/slice-1" "$WORK/garbled"
sed -i 's/"index": 1/"index": "one"/' "$WORK/garbled/campaign.json"
grep -q '"index": "one"' "$WORK/garbled/campaign.json" || fail "the garbled campaign.json was not garbled"
refused "$GJKREF" merge --out "$WORK/garbled-merge" "$WORK/slice-0" "$WORK/garbled"
grep -q "malformed" "$WORK/refused.err" || fail "no reason for a malformed campaign.json"
# A negative seed too (it was merged, and the reports named the seed 2^64 − 1 while campaign.json said −1).
rm -rf "$WORK/negative" && cp -r "$WORK/slice-1" "$WORK/negative"
sed -i 's/"seed": 3/"seed": -3/' "$WORK/negative/campaign.json"
grep -q '"seed": -3' "$WORK/negative/campaign.json" || fail "the seed of the edited campaign.json was not edited"
refused "$GJKREF" merge --out "$WORK/negative-merge" "$WORK/slice-0" "$WORK/negative"
grep -q "malformed" "$WORK/refused.err" || fail "no reason for a negative seed"
# Each slice records the code that made it: gjkref's source identity (as --version prints it) and each
# implementation's version. A slice made by another build of gjkref or with another version of an implementation is
# refused by merge and by a resume, naming what differs: its cases would be answered and judged by two codes.
source=$("$GJKREF" --version | sed -n 's/.*, source \([0-9a-f]*\|unknown\)$/\1/p')
python3 - "$WORK/slice-1/campaign.json" "$source" <<'PY' || fail "campaign.json does not record the source and versions"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["source"] == sys.argv[2] and sys.argv[2], (c.get("source"), sys.argv[2])
assert set(c["versions"]) == set(c["implementations"]) and c["versions"]["libccd-gjk"].startswith("2.1"), c["versions"]
PY
for field in source versions; do
  rm -rf "$WORK/rebuilt" "$WORK/rebuilt-merge" && cp -r "$WORK/slice-1" "$WORK/rebuilt"
  python3 - "$WORK/rebuilt/campaign.json" "$field" <<'PY'
import json, sys
path, field = sys.argv[1], sys.argv[2]
c = json.load(open(path))
if field == "source":
    c["source"] = "000000000000"
else:
    c["versions"]["libccd-gjk"] = "2.0 (another build)"
json.dump(c, open(path, "w"), indent=2)
PY
  refused "$GJKREF" merge --out "$WORK/rebuilt-merge" "$WORK/slice-0" "$WORK/rebuilt"
  grep -q "differs from .* in: $field;" "$WORK/refused.err" || fail "merge, another $field: $(cat "$WORK/refused.err")"
  refused "$GJKREF" "${ARGS[@]}" --jobs 1 --shard 1/2 --out "$WORK/rebuilt"
  grep -q "differs in: $field;" "$WORK/refused.err" || fail "resume, another $field: $(cat "$WORK/refused.err")"
done
# A slice count of 0 (or an index outside the count) is refused; it made the deal of the cases loop for ever.
for edit in 's/"count": 2/"count": 0/' 's/"index": 1/"index": 2/' 's/"index": 1/"index": -1/'; do
  rm -rf "$WORK/edited" "$WORK/edited-merge"
  cp -r "$WORK/slice-1" "$WORK/edited"
  sed -i "$edit" "$WORK/edited/campaign.json"
  cmp -s "$WORK/slice-1/campaign.json" "$WORK/edited/campaign.json" && fail "the edit $edit changed nothing"
  refused timeout 60 "$GJKREF" merge --out "$WORK/edited-merge" "$WORK/edited" "$WORK/slice-0"
  grep -q "names no slice" "$WORK/refused.err" || fail "no reason for a slice edited with $edit"
done
# Both slices edited alike into what gjkref check never writes: another format, no family (a merge of "0 of 0 cases",
# exit 0), versions that are no table.
for edit in 'c["format"] = "x"' 'c["families"] = []' 'c["dims"] = []' 'c["versions"] = 5'; do
  rm -rf "$WORK/alike-0" "$WORK/alike-1" "$WORK/alike-merge"
  for k in 0 1; do
    cp -r "$WORK/slice-$k" "$WORK/alike-$k"
    python3 - "$WORK/alike-$k/campaign.json" "$edit" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(c, open(sys.argv[1], "w"), indent=2)
PY
  done
  refused "$GJKREF" merge --out "$WORK/alike-merge" "$WORK/alike-0" "$WORK/alike-1"
  grep -q "holds no slice" "$WORK/refused.err" || fail "no reason for slices edited with $edit: $(cat "$WORK/refused.err")"
done
refused "$GJKREF" merge --out "$WORK/merged" "$WORK/slice-0" "$WORK/slice-1"
grep -q "not empty" "$WORK/refused.err" || fail "no reason for a non-empty output directory"
# An output inside a slice (it was copied into itself, recursively, until a name grew too long, and the slice kept the
# copies), or the slice itself; an empty argument (read as the working directory); a log that is not a file.
tree_before=$(find "$WORK/slice-0" | sort)
refused "$GJKREF" merge --out "$WORK/slice-0/merged" "$WORK/slice-0/" "$WORK/slice-1"
grep -q "is inside the slice" "$WORK/refused.err" || fail "no reason for an output inside a slice"
[ "$(find "$WORK/slice-0" | sort)" = "$tree_before" ] || fail "a refused merge altered the slice it would write into"
refused "$GJKREF" merge --out "$WORK/slice-1" "$WORK/slice-0" "$WORK/slice-1"
refused "$GJKREF" merge --out "$WORK/from-empty" '' "$WORK/slice-1"
grep -q "an empty argument" "$WORK/refused.err" || fail "no reason for an empty argument"
rm -rf "$WORK/odd" && cp -r "$WORK/slice-1" "$WORK/odd" && mkdir "$WORK/odd/shard-7.jsonl"
refused "$GJKREF" merge --out "$WORK/odd-merge" "$WORK/slice-0" "$WORK/odd"
grep -q "not a regular file" "$WORK/refused.err" || fail "no reason for a log that is a directory"
for bad in 2/2 1/0 -1/2 a/b 3 1/2/3; do
  refused "$GJKREF" "${ARGS[@]}" --shard "$bad" --out "$WORK/bad"
done
echo "check-shards: 2 slices merged = the whole campaign ($saved counterexamples); refusals checked"
