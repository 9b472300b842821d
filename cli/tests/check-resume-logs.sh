#!/usr/bin/env bash
# CTest cli.check-resume-logs (docs/comparing.md, "Output and resuming"): a campaign resumes only from logs it can
# trust. A log line that is valid JSON but not one gjkref check writes (no results, a short row, a status, finding or
# oracle verdict gjkref does not write), a line of an item
# outside the campaign (beyond its --cases, or logged by a run with a larger --cases), and logs whose campaign.json is
# gone or unreadable (whose seed is unknown) are refused with exit status 2 and the file and line named — never an uncaught
# exception, never counted. gjkref merge refuses such a slice the same way. A last line cut by a kill is still dropped
# and its case redone.
# Usage: check-resume-logs.sh GJKREF WORKDIR
set -euo pipefail
GJKREF="$1"
WORK="$2"
rm -rf "$WORK"
mkdir -p "$WORK"
ARGS=(check --impl reference-double --family touching --dim 2 --seed 1 --jobs 1 --no-progress)
fail() { echo "check-resume-logs: $*" >&2; exit 1; }
"$GJKREF" "${ARGS[@]}" --cases 20 --out "$WORK/good" > /dev/null || fail "the campaign to resume from exited $?"
[ "$(wc -l < "$WORK/good/shard-0.jsonl")" -eq 20 ] || fail "expected 20 logged cases"

# refused NAME MESSAGE ARGS...: gjkref exits 2 and says MESSAGE (a regular expression) on stderr.
refused() {
  local name="$1" message="$2"
  shift 2
  local status=0
  "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" || status=$?
  [ "$status" -eq 2 ] || fail "$name: exit status $status, expected 2 ($(cat "$WORK/$name.err"))"
  grep -qE "$message" "$WORK/$name.err" || fail "$name: no '$message' in: $(cat "$WORK/$name.err")"
}
# copy NAME: a copy of the good campaign, to spoil.
copy() { rm -rf "$WORK/$1"; cp -r "$WORK/good" "$WORK/$1"; }

# Line 4 without its results:
copy no-results
sed -i '4s/,"results":{[^}]*}//' "$WORK/no-results/shard-0.jsonl"
grep -q '"results"' <(sed -n 4p "$WORK/no-results/shard-0.jsonl") && fail "line 4 still has its results"
refused no-results 'shard-0.jsonl:4: no results' "$GJKREF" "${ARGS[@]}" --cases 20 --out "$WORK/no-results"

# Line 6 with a row of one field:
copy short-row
sed -i '6s/"reference-double":\[[^]]*\]/"reference-double":["answered"]/' "$WORK/short-row/shard-0.jsonl"
refused short-row "shard-0.jsonl:6: the result of 'reference-double' is a compact row" \
  "$GJKREF" "${ARGS[@]}" --cases 20 --out "$WORK/short-row"

# Names gjkref does not write, as a hand edit or another version leaves them: a status, a finding, an oracle verdict.
# spoilt NAME LINE SED_EXPRESSION WORD MESSAGE: a copy with SED_EXPRESSION applied to line LINE (which must then hold
# WORD) is refused with MESSAGE.
spoilt() {
  local name="$1" line="$2" expression="$3" word="$4" message="$5"
  copy "$name"
  sed -i "${line}${expression}" "$WORK/$name/shard-0.jsonl"
  grep -q "\"$word\"" <(sed -n "${line}p" "$WORK/$name/shard-0.jsonl") || fail "$name: line $line was not spoilt"
  refused "$name" "shard-0.jsonl:$line: $message" "$GJKREF" "${ARGS[@]}" --cases 20 --out "$WORK/$name"
}
spoilt bad-status 7 's/"reference-double":\["answered"/"reference-double":["answerd"/' answerd \
  "the result of 'reference-double' is a row whose status 'answerd' is none"
spoilt bad-finding 8 's/"reference-double":\["answered","agrees"/"reference-double":["answered","fine"/' fine \
  "the result of 'reference-double' is a row whose finding 'fine' is none"
spoilt bad-verdict 9 's/"oracle":"[a-z-]*"/"oracle":"apart"/' apart "its oracle verdict 'apart' is none gjkref writes"

# A line of an item beyond the campaign (index 57 of a campaign of 20):
copy beyond
sed -n 1p "$WORK/beyond/shard-0.jsonl" | sed 's/"index":0/"index":57/; s|touching/2/0|touching/2/57|' \
  >> "$WORK/beyond/shard-0.jsonl"
refused beyond 'shard-0.jsonl:21: item touching/2/57 is not in this campaign' \
  "$GJKREF" "${ARGS[@]}" --cases 20 --out "$WORK/beyond"

# The logs of a larger --cases, resumed with a smaller one:
copy smaller
refused smaller 'item touching/2/1[0-9] is not in this campaign' "$GJKREF" "${ARGS[@]}" --cases 10 --out "$WORK/smaller"

# campaign.json removed, and another seed: the logs are not adopted.
copy orphaned
rm "$WORK/orphaned/campaign.json"
refused orphaned 'holds logs \(shard-0.jsonl\) but no campaign.json' \
  "$GJKREF" check --impl reference-double --family touching --dim 2 --seed 2 --jobs 1 --no-progress --cases 20 \
  --out "$WORK/orphaned"
[ ! -e "$WORK/orphaned/campaign.json" ] || fail "a campaign.json was written beside logs of unknown origin"

# campaign.json emptied or cut short, and another seed: refused too. (An unreadable campaign.json compared unequal to
# nothing: the seed-2 run resumed the seed-1 logs, ran nothing and reported them as seed 2's, exit 0.)
for cut in 0 50; do
  copy unreadable-$cut
  head -c "$cut" "$WORK/good/campaign.json" > "$WORK/unreadable-$cut/campaign.json"
  refused unreadable-$cut 'campaign.json is not valid JSON, so which campaign the logs in .* belong to is unknown' \
    "$GJKREF" check --impl reference-double --family touching --dim 2 --seed 2 --jobs 1 --no-progress --cases 20 \
    --out "$WORK/unreadable-$cut"
done

# A slice with a line without results: merge refuses it.
for k in 0 1; do
  "$GJKREF" "${ARGS[@]}" --cases 20 --shard "$k/2" --out "$WORK/slice-$k" > /dev/null || fail "slice $k exited $?"
done
sed -i '2s/,"results":{[^}]*}//' "$WORK/slice-1/shard-1.jsonl"
refused merge-bad-slice "slice 1/2's logs are not its campaign's: .*shard-1.jsonl:2: no results" \
  "$GJKREF" merge --out "$WORK/merged" "$WORK/slice-0" "$WORK/slice-1"

# A last line cut by a kill is dropped and redone; the resumed campaign logs every case once.
copy cut
truncate -s -40 "$WORK/cut/shard-0.jsonl"
"$GJKREF" "${ARGS[@]}" --cases 20 --out "$WORK/cut" > "$WORK/cut.out" 2> "$WORK/cut.err" ||
  fail "the campaign with a cut last line exited $? ($(cat "$WORK/cut.err"))"
[ "$(wc -l < "$WORK/cut/shard-0.jsonl")" -eq 20 ] || fail "a cut line was not redone once"
python3 -c "import json,sys; r=json.load(open('$WORK/cut/report.json')); sys.exit(0 if r['items'] == 20 and not r['partial'] else 1)" ||
  fail "the resumed campaign's report does not hold its 20 cases"
# Logs of a gjkref older than the detail (compact rows of 14 fields, no detail) are trusted; report.md then counts their
# answers as having none in "How the reference answered".
copy old-rows
python3 - "$WORK/old-rows/shard-0.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for j in lines[:5]:
    for name, row in j["results"].items():
        if isinstance(row, list) and len(row) == 15: del row[14]
        elif isinstance(row, dict): row.pop("detail", None)
open(sys.argv[1], "w").write("".join(json.dumps(j) + "\n" for j in lines))
PY
"$GJKREF" "${ARGS[@]}" --cases 20 --out "$WORK/old-rows" > /dev/null 2>&1 || [ $? -eq 1 ] ||
  fail "the campaign with older rows exited $?"
grep -qE '^\| reference-double, touching 2D \|.*no detail: 5 \|$' "$WORK/old-rows/report.md" ||
  fail "report.md does not count the 5 answers without a detail: $(grep 'reference-double, touching' "$WORK/old-rows/report.md")"
echo "check-resume-logs: every untrustworthy log refused, a cut line redone, older rows counted without a detail"
