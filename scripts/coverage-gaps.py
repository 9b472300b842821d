#!/usr/bin/env python3
"""List the branches of reference/include/gjkref/ that the last scripts/coverage run left uncovered, and total them.

Reads `llvm-cov export` JSON on stdin; an outcome (true or false) counts as covered when any template instantiation
took it. Prints file:line:column, the two counts and the source line of every branch with an outcome not taken; then,
per file, the outcomes covered of all, and of those that can be taken at run time: llvm-cov counts the condition of an
`if constexpr` as a branch whose outcomes are never recorded (the choice is made at compile time), so those are set
apart. With --summary, the totals alone.
"""
import collections
import json
import sys

summary_only = "--summary" in sys.argv[1:]
try:
    data = json.load(sys.stdin)
    files = data["data"][0]["files"]
except (json.JSONDecodeError, KeyError, IndexError, TypeError) as e:
    sys.exit(f"coverage-gaps: stdin is not llvm-cov export JSON ({e})")
totals = []
for f in files:
    outcomes = collections.defaultdict(lambda: [0, 0])
    for b in f.get("branches", []):  # [line, col, end line, end col, true count, false count, ...]
        key = (b[0], b[1])
        outcomes[key][0] += b[4]
        outcomes[key][1] += b[5]
    source = open(f["filename"]).read().split("\n")
    name = f["filename"].split("/")[-1]
    all_outcomes = covered = compile_time = 0
    for (line, col), (taken, not_taken) in sorted(outcomes.items()):
        text = source[line - 1].strip()
        if "if constexpr" in text and taken == 0 and not_taken == 0:
            compile_time += 2
        else:
            all_outcomes += 2
            covered += (taken > 0) + (not_taken > 0)
        if (taken == 0 or not_taken == 0) and not summary_only:
            print(f"{name}:{line}:{col} true={taken} false={not_taken}  {text[:100]}")
    if all_outcomes or compile_time:
        totals.append((name, covered, all_outcomes, compile_time))
print(f"{'file':<28}{'covered':>9}{'of':>6}{'share':>9}   (if constexpr outcomes set apart)")
for name, covered, all_outcomes, compile_time in totals:
    share = f"{100 * covered / all_outcomes:.1f} %" if all_outcomes else "-"
    print(f"{name:<28}{covered:>9}{all_outcomes:>6}{share:>9}   ({compile_time})")
c = sum(t[1] for t in totals)
n = sum(t[2] for t in totals)
if n == 0:
    sys.exit("coverage-gaps: the export holds no branch outcomes (was the coverage build made with branch coverage?)")
print(f"{'all':<28}{c:>9}{n:>6}{100 * c / n:>8.1f} %")
