#!/usr/bin/env python3
"""List the branches of reference/include/gjkref/ that the last scripts/coverage run left uncovered.

Reads `llvm-cov export` JSON on stdin; an outcome (true or false) counts as covered when any template instantiation
took it, as llvm-cov's report counts it. Prints file:line:column, the two counts and the source line.
"""
import collections
import json
import sys

data = json.load(sys.stdin)
for f in data["data"][0]["files"]:
    outcomes = collections.defaultdict(lambda: [0, 0])
    for b in f.get("branches", []):  # [line, col, end line, end col, true count, false count, ...]
        key = (b[0], b[1])
        outcomes[key][0] += b[4]
        outcomes[key][1] += b[5]
    source = open(f["filename"]).read().split("\n")
    for (line, col), (taken, not_taken) in sorted(outcomes.items()):
        if taken == 0 or not_taken == 0:
            name = f["filename"].split("/")[-1]
            print(f"{name}:{line}:{col} true={taken} false={not_taken}  {source[line - 1].strip()[:100]}")
