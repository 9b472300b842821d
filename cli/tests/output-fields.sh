#!/usr/bin/env bash
# CTest cli.output-fields-documented (docs/output-formats.md): every field name gjkref writes in JSON, and every value
# of its enumerated fields (result, status, finding, verdict, class, feature, method, second_method), is documented in
# docs/output-formats.md. Written here: eval --json on the examples (the reference, Bullet with depths, Chipmunk, a
# plugin that always answers separated) and on a case past --oracle-time-limit; a campaign sliced 0/2 with plugins
# that are wrong on purpose (full log rows, counterexamples, findings), and the merge of both slices.
# Usage: output-fields.sh GJKREF JUDGE_PLUGINS SOURCE_DIR WORKDIR
set -euo pipefail
GJKREF="$1"
PLUGIN="$2"
SRC="$3"
WORK="$4"
rm -rf "$WORK"
mkdir -p "$WORK"
"$GJKREF" eval --json --impl reference,bullet-gjkepa-double,chipmunk-collide,always-separated --plugin "$PLUGIN" \
  "$SRC"/cases/examples/*.json > "$WORK/eval.jsonl" || [ $? -eq 1 ]
"$GJKREF" eval --json --impl reference-double --oracle-time-limit 0.001 "$SRC/cases/limits/slow-oracle-3d.json" \
  >> "$WORK/eval.jsonl"
for k in 0 1; do
  "$GJKREF" check --impl reference-certified,depth-off-ten-percent,shifted-witnesses,always-separated \
    --plugin "$PLUGIN" --family touching,deep-overlap --cases 4 --seed 2 --jobs 1 --shard "$k/2" --no-progress \
    --out "$WORK/slice-$k" > /dev/null 2>&1 || [ $? -eq 1 ]
done
"$GJKREF" merge --out "$WORK/merged" "$WORK/slice-0" "$WORK/slice-1" > /dev/null 2>&1 || [ $? -eq 1 ]
python3 - "$WORK" "$SRC/docs/output-formats.md" <<'PY'
import glob, json, os, re, sys
work, doc = sys.argv[1], sys.argv[2]
documented = set(re.findall(r"`([^`]+)`", open(doc).read()))
enumerated = {"result", "status", "finding", "verdict", "class", "feature", "method", "second_method"}
named_children = {"results", "opinions", "implementations", "by_family", "versions"}  # keyed by names, not fields
fields, values = set(), set()

def walk(x, under=None):
    if isinstance(x, dict):
        for k, v in x.items():
            if under in named_children:
                walk(v, "by_family_row" if under == "by_family" else None)
                continue
            if under == "by_family_row":
                walk(v)
                continue
            if k == "details" and isinstance(v, dict):  # keyed by the implementations' own details: free text
                fields.add(k)
                continue
            if k == "findings" and isinstance(v, dict):
                fields.add(k)
                values.update(f.removesuffix("+band") for f in v)
                continue
            fields.add(k)
            if k in enumerated and isinstance(v, str):
                values.add(v)
            walk(v, k)
    elif isinstance(x, list):
        for v in x:
            if isinstance(v, (dict, list)):
                walk(v)

for line in open(os.path.join(work, "eval.jsonl")):
    walk(json.loads(line))
for d in ("slice-0", "slice-1", "merged"):
    walk(json.load(open(os.path.join(work, d, "report.json"))))
    walk(json.load(open(os.path.join(work, d, "campaign.json"))))
    for log in glob.glob(os.path.join(work, d, "shard-*.jsonl")):
        for line in open(log):
            row = json.loads(line)
            for impl, r in row.get("results", {}).items():
                if isinstance(r, list):  # a compact row: status and finding first
                    values.update(v for v in r[:2] if isinstance(v, str) and v != "not-judged")
            walk(row)
assert len(fields) > 60, sorted(fields)  # the outputs above were written and read
missing = sorted(f"field {f}" for f in fields - documented) + sorted(f"value {v}" for v in values - documented)
if missing:
    print("output-fields: not in docs/output-formats.md:", ", ".join(missing))
    sys.exit(1)
print(f"output-fields: all {len(fields)} fields and {len(values)} values documented")
PY
