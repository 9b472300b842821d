#!/usr/bin/env bash
# CTest cli.check-summary (docs/comparing.md, "The console table and report.md", "Output and resuming"): report.md's
# summary says, from the same answers as results.csv, which implementations are within their contracts on every judged
# answer, and for each other one how many answers are outside, by finding, most frequent first, and the families with
# the most; junit.xml has a test suite per implementation and a test case per family and dimension, failed where an
# answer is outside the contract. Both are computed here from results.csv, apart from gjkref's tallies.
# Usage: check-summary.sh GJKREF MISBEHAVING_PLUGIN WORKDIR
set -euo pipefail
GJKREF="$1"
PLUGIN="$2"
WORK="$3"
rm -rf "$WORK"
fail() { echo "check-summary: $*" >&2; exit 1; }
# The misbehaving plugin answers "intersecting" on every case (wrong on the separated ones); the reference is right.
status=0
GJKREF_TEST_DETAIL="always intersecting" "$GJKREF" check --impl reference-exact,reference-double --plugin "$PLUGIN" \
  --family random,touching,near-touching --cases 15 --seed 8 --jobs 1 --time-limit 1 --no-progress --out "$WORK" > "$WORK.out" 2>&1 ||
  status=$?
[ "$status" -eq 1 ] || fail "exit status $status, expected 1: $(tail -3 "$WORK.out")"
python3 - "$WORK" <<'PY'
import collections, csv, sys
work = sys.argv[1]
rows = list(csv.DictReader(open(f"{work}/results.csv", newline="")))
judged = collections.Counter(r["implementation"] for r in rows if r["finding"] != "not-judged")
outside = [r for r in rows if r["within_contract"] == "false"]
order = list(dict.fromkeys(r["implementation"] for r in rows))
expected = []
not_judged = collections.Counter(r["implementation"] for r in rows if r["finding"] == "not-judged")
right = [name for name in order if not any(r["implementation"] == name for r in outside)]
clean = [f"{name} ({judged[name]})" for name in right if judged[name] > 0]
none = [f"{name} ({not_judged[name]})" for name in right if judged[name] == 0]
if clean:
    expected.append("Every judged answer within its contract (answers judged): " + ", ".join(clean) + ".")
if none:
    expected.append("No answer judged (answers not judged): " + ", ".join(none) + ".")
for name in order:
    mine = [r for r in outside if r["implementation"] == name]
    if not mine:
        continue
    ranked = lambda counter: sorted(counter.items(), key=lambda kv: -kv[1])  # stable: ties keep their first order
    findings = ranked(collections.Counter(sorted(r["finding"] for r in mine)))
    families = ranked(collections.Counter(sorted(f"{r['family']} {r['dim']}D" for r in mine)))
    expected.append(f"- **{name}**: {len(mine)} of {judged[name]} judged answers outside the contract "
                    f"({100 * len(mine) / judged[name]:.2f} %): " + ", ".join(f"{f} {n}" for f, n in findings) +
                    "; most in " + ", ".join(f"{f} ({n})" for f, n in families[:3]) + ".")
report = open(f"{work}/report.md").read()
summary = report.split("## Summary\n\n", 1)[1].split("\n## ", 1)[0]
got = [line for line in summary.split("\n") if line]
if got != expected:
    sys.exit("check-summary: report.md's summary\n  " + "\n  ".join(got) + "\nis not, from results.csv,\n  " +
             "\n  ".join(expected))
if len(expected) != 2 or "misbehaving" not in expected[1]:
    sys.exit("check-summary: the campaign was meant to have one clean and one wrong implementation: " + str(expected))
import xml.etree.ElementTree as ET
root = ET.parse(f"{work}/junit.xml").getroot()
cases = collections.defaultdict(lambda: [0, 0])  # (implementation, "family ND") -> [judged, outside]
for r in rows:
    if r["finding"] != "not-judged":
        key = (r["implementation"], f"{r['family']} {r['dim']}D")
        cases[key][0] += 1
        cases[key][1] += r["within_contract"] == "false"
suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
if sorted(suites) != sorted(order):
    sys.exit(f"check-summary: junit.xml's test suites {sorted(suites)} are not the implementations {sorted(order)}")
for name, suite in suites.items():
    got = {}
    for case in suite.findall("testcase"):
        failure = case.find("failure")
        got[(name, case.get("name"))] = failure.get("message") if failure is not None else None
    want = {key: (f"{n_out} of {n} judged answers outside the contract" if n_out else None)
            for key, (n, n_out) in cases.items() if key[0] == name}
    if got != want:
        sys.exit(f"check-summary: junit.xml's test cases of {name}\n  {got}\nare not, from results.csv,\n  {want}")
    if int(suite.get("failures")) != sum(1 for v in want.values() if v):
        sys.exit(f"check-summary: junit.xml's failures attribute of {name} is {suite.get('failures')}")
failed = sum(1 for (n, n_out) in cases.values() if n_out)
if int(root.get("failures")) != failed or int(root.get("tests")) != len(cases) or failed == 0:
    sys.exit(f"check-summary: junit.xml counts {root.get('tests')} tests and {root.get('failures')} failures, "
             f"expected {len(cases)} and {failed} (more than 0)")
print(f"check-summary: the summary and junit.xml agree with results.csv ({len(outside)} answers outside, "
      f"{failed} of {len(cases)} test cases failed)")
PY
