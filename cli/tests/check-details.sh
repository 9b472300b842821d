#!/usr/bin/env bash
# CTest cli.check-details (docs/output-formats.md): an implementation's detail is its own text, and may hold anything a
# plugin writes (an exception's message, the end of its stderr): newlines, tabs, quotes, '|', backslashes. results.csv
# keeps one line per row, report.md keeps its lines and table cells, and the text can be read back: one_line escapes
# a backslash and each control character (\n, \r, \t, \xNN), and the logs keep the text as it came (JSON). A refusal's
# reason is logged with its not-judged row and shown in results.csv, and a campaign resumes from such rows. A detail
# that differs on every answer does not make report.json grow with the answers (kReportedDetails). junit.xml stays
# well-formed with such text. Text that is not UTF-8 reaches the reports with each bad byte as U+FFFD.
# Usage: check-details.sh GJKREF MISBEHAVING_PLUGIN WORKDIR
set -euo pipefail
GJKREF="$1"
PLUGIN="$2"
WORK="$3"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "check-details: $*" >&2; exit 1; }
DETAIL=$'two\nlines | "quoted"\tend \\ \x01'
ARGS=(check --impl reference-exact --plugin "$PLUGIN" --family random --dim 2 --cases 20 --seed 3 --jobs 1 --no-progress)

# The plugin answers "intersecting" with DETAIL on every case: its misses are logged in full and saved.
status=0
GJKREF_TEST_DETAIL="$DETAIL" "$GJKREF" "${ARGS[@]}" --out "$WORK/answers" > "$WORK/answers.out" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "a plugin that misses exited $status, expected 1: $(tail -3 "$WORK/answers.out")"
status=0
GJKREF_TEST_DETAIL="$DETAIL" GJKREF_TEST_REFUSE=1 "$GJKREF" "${ARGS[@]}" --out "$WORK/refusals" > "$WORK/refusals.out" 2>&1 ||
  status=$?
# Every answer refused, nothing of the plugin judged: exit status 4 (docs/comparing.md).
[ "$status" -eq 4 ] || fail "a plugin that refuses exited $status, expected 4: $(tail -3 "$WORK/refusals.out")"
# Resumed from its logs (whose not-judged rows now carry the reason), the finished campaign has nothing to do.
status=0
GJKREF_TEST_DETAIL="$DETAIL" GJKREF_TEST_REFUSE=1 "$GJKREF" "${ARGS[@]}" --out "$WORK/refusals" > "$WORK/resumed.out" 2>&1 ||
  status=$?
[ "$status" -eq 4 ] || fail "resuming from logs with the refusals' reasons exited $status: $(tail -3 "$WORK/resumed.out")"

# A detail that differs on every answer (a value, as libccd's adapters give the contact position): report.json counts
# the kReportedDetails (20) most frequent, and the others together.
GJKREF_TEST_DETAIL="answer" GJKREF_TEST_NUMBERED=1 "$GJKREF" check --impl reference-exact --plugin "$PLUGIN" \
  --family random --dim 2 --cases 30 --seed 3 --jobs 1 --no-progress --out "$WORK/numbered" > "$WORK/numbered.out" 2>&1 ||
  [ $? -eq 1 ] || fail "the numbered run exited with an error: $(tail -3 "$WORK/numbered.out")"
python3 - "$WORK/numbered/report.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))["implementations"]["misbehaving"]
shown, others = summary["details"], summary.get("other_details")
if len(shown) != 20 or sorted(shown.values()) != [1] * 20:
    sys.exit(f"check-details: report.json counts {len(shown)} details of 30 distinct ones, expected the 20 first")
if others != {"distinct": 10, "answers": 10}:
    sys.exit(f"check-details: report.json's other_details is {others}, expected 10 distinct details of 10 answers")
PY

python3 - "$WORK" "$DETAIL" <<'PY'
import csv, json, sys
work, detail = sys.argv[1], sys.argv[2]
escaped = detail.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\x01", "\\x01")
def fail(message):
    sys.exit("check-details: " + message)
for run, finding in (("answers", None), ("refusals", "not-judged")):
    lines = open(f"{work}/{run}/results.csv", newline="").read().split("\n")
    assert lines[-1] == "", "results.csv does not end with a newline"
    rows = [next(csv.reader([line])) for line in lines[1:-1]]  # each physical line a whole row
    header = next(csv.reader([lines[0]]))
    if any(len(row) != len(header) for row in rows):
        fail(f"{run}: a line of results.csv is not a whole row of {len(header)} fields")
    mine = [dict(zip(header, row)) for row in rows if row[header.index("implementation")] == "misbehaving"]
    if len(mine) != 20:
        fail(f"{run}: {len(mine)} rows of the plugin in results.csv, expected one per case (20)")
    if any(row["detail"] != escaped for row in mine):
        fail(f"{run}: a detail in results.csv is not the text on one line: {mine[0]['detail']!r}")
    if finding and any(row["finding"] != finding for row in mine):
        fail(f"{run}: a refusal is not a not-judged row")
    logged = [json.loads(line)["results"]["misbehaving"] for line in open(f"{work}/{run}/shard-0.jsonl")]
    texts = [row["detail"] if isinstance(row, dict) else row[-1] for row in logged]
    if any(text != detail for text in texts):
        fail(f"{run}: a logged detail is not the text as it came: {texts[0]!r}")
    if finding and any(row != ["refused", "not-judged", detail] for row in logged):
        fail(f"{run}: a refusal is not logged as [status, not-judged, reason]: {logged[0]!r}")
report = open(f"{work}/answers/report.md").read().split("\n")
saved = [line for line in report if line.startswith("- [") and line.endswith(f"({escaped})")]
if not saved:
    fail("report.md names no counterexample with the plugin's detail on its line")
if any(line.startswith("lines |") for line in report):
    fail("report.md has a line broken by the detail's newline")
# junit.xml is well-formed XML with the detail (XML 1.0 allows no control character but these, escaped or not), and a
# family of refusals only is a skipped test case.
import xml.etree.ElementTree as ET
failures = [f.text for f in ET.parse(f"{work}/answers/junit.xml").getroot().iter("failure")]
if not failures or not all(f"({escaped})" in text for text in failures):
    fail("junit.xml's failures do not give the counterexamples with the detail on one line")
if "No answer judged (answers not judged): misbehaving (20)." not in open(f"{work}/refusals/report.md").read():
    fail("report.md's summary does not say that no answer of the refusing plugin was judged")
skipped = [case for case in ET.parse(f"{work}/refusals/junit.xml").getroot().iter("testcase")
           if case.find("skipped") is not None]
if [case.get("classname") for case in skipped] != ["gjkref.misbehaving"]:
    fail("junit.xml does not skip the family in which every answer was refused")
print(f"check-details: {len(saved)} counterexamples and 40 rows with the detail on one line")
PY

# A detail that is not UTF-8 (a byte 0xFF; a sequence cut short): the reports and logs are JSON, which holds UTF-8
# only. Each bad byte becomes U+FFFD and the campaign, and eval, go on; before, every shard stopped (exit 3: "invalid
# UTF-8 byte"), again on every rerun, and eval called the whole case an internal error.
BAD=$'bad\xff \xe2\x82 end'
REPLACED=$'bad\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd end'
status=0
GJKREF_TEST_DETAIL="$BAD" "$GJKREF" check --impl reference-exact --plugin "$PLUGIN" --family random --dim 2 --cases 5 \
  --seed 3 --jobs 1 --no-progress --out "$WORK/utf8" > "$WORK/utf8.out" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "a plugin whose detail is not UTF-8 exited $status, expected 1: $(tail -3 "$WORK/utf8.out")"
grep -qF "$REPLACED" "$WORK/utf8/results.csv" || fail "results.csv does not hold the detail with U+FFFD for its bad bytes"
printf '%s\n' '{ "format": "gjkref-case/1", "name": "apart", "dim": 2, "a": { "points": [[0, 0], [1, 0], [0, 1]] },' \
  '  "b": { "points": [[3, 0], [4, 0], [3, 1]] } }' > "$WORK/apart.json"
status=0
GJKREF_TEST_DETAIL="$BAD" "$GJKREF" eval --impl misbehaving --plugin "$PLUGIN" --json "$WORK/apart.json" \
  > "$WORK/utf8-eval.out" 2> "$WORK/utf8-eval.err" || status=$?
[ "$status" -ne 3 ] || fail "eval called the case an internal error: $(cat "$WORK/utf8-eval.err")"
python3 - "$WORK/utf8-eval.out" "$REPLACED" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1], encoding="utf-8").readline())
if line["result"] != "evaluated" or line["results"]["misbehaving"]["detail"] != sys.argv[2]:
    sys.exit(f"check-details: eval's answer is not the plugin's with U+FFFD for its bad bytes: {line}")
PY
echo "check-details: a detail that is not UTF-8 is reported with U+FFFD"
