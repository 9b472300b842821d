#!/usr/bin/env bash
# CTest cli.eval-beyond-reach (docs/oracle.md, "Reach"): gjkref eval answers cases beyond the hull method's reach with
# the certified fast path, says which method answered and which checked it, and judges the implementations against
# that answer. Two point clouds on unit spheres 3 apart (Fibonacci lattices, n points each):
#   n = 520:  270,400 pairs (beyond the hull's 250,000), 1,040 points (within the QP's 4,000): certified, checked by QP;
#   n = 3000: 9,000,000 pairs and 6,000 points: certified, no second method within reach;
#   n = 100000 against one point: 100,000 pairs (within kHullReachPairs) but 100,001 points (beyond kHullReachPoints):
#   certified, no second method, in seconds (the hull took 12.5 s, and the QP passed the oracle's time limit and
#   aborted eval, dumping the whole case to stderr, before the certified path and the points limit).
#   n = 3000, the clouds 1 apart (overlapping): beyond the hull's reach the depth oracle is the certified reference's,
#   its certificate checked (impl/judge.cpp, Truth::penetration). Every reference mode's depth is judged (the certified
#   one bit for bit), Bullet's contact points (when the build has Bullet) are said to be judged in part, and, with the
#   judge plugins given, an
#   implementation that always answers "separated" is refused — in seconds: the hull's depth, which the judge called
#   before, passed the oracle's time limit, and the case was reported oracle-timeout with nothing judged.
# Usage: eval-beyond-reach.sh GJKREF WORKDIR [JUDGE_PLUGINS (libgjkref-judge-plugins.so)]
set -euo pipefail
GJKREF="$1"
WORK="$2"
PLUGINS="${3:-}"
rm -rf "$WORK"
mkdir -p "$WORK"
# spheres NAME N_A N_B CENTRE_B: A's N_A-point lattice at the origin, B's at (CENTRE_B, 0, 0) (N_B = 1: that point).
spheres() {
  python3 - "$@" > "$WORK/$1.json" <<'PY'
import json, math, sys
name, n_a, n_b, centre = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
def sphere(n, cx):
    if n == 1:
        return [[cx, 0.0, 0.0]]
    pts = []
    for k in range(n):
        z = 1 - (2 * k + 1) / n
        r = math.sqrt(1 - z * z)
        t = k * math.pi * (3 - math.sqrt(5))
        pts.append([cx + r * math.cos(t), r * math.sin(t), z])
    return pts
print(json.dumps({"format": "gjkref-case/1", "name": name, "dim": 3,
                  "a": {"points": sphere(n_a, 0.0)}, "b": {"points": sphere(n_b, centre)}}))
PY
}
spheres spheres-520 520 520 3
spheres spheres-3000 3000 3000 3
spheres spheres-100000 100000 1 3
check() {  # check FILE EXPECTED_SECOND_METHOD
  "$GJKREF" eval --json --impl reference-certified,reference-double "$1" > "$WORK/out.json"
  python3 - "$WORK/out.json" "$2" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1]).readline())
o = line["oracle"]
assert o["verdict"] == "separated", o
assert o["method"] == "certified", o
assert o["second_method"] == sys.argv[2], o
assert o["methods_agree"] is True, o
assert 1.0 <= o["distance"] < 2.05, o  # the lattices miss the exact closest points by a little (2 against a point)
r = line["results"]
assert r["reference-certified"]["agrees"] is True, r
assert r["reference-certified"]["distance"] == o["distance"], r
assert r["reference-double"]["agrees"] is True, r
print(line["name"], "answered by", o["method"], "checked by", o["second_method"], "d =", o["distance"])
PY
}
check "$WORK/spheres-520.json" qp
check "$WORK/spheres-3000.json" none
start=$(date +%s)
check "$WORK/spheres-100000.json" none 2> "$WORK/err-100000.txt"
[ ! -s "$WORK/err-100000.txt" ] || { cat "$WORK/err-100000.txt"; echo "eval-beyond-reach: eval wrote to stderr"; exit 1; }
echo "100,000 + 1 points: $(( $(date +%s) - start )) s"
spheres overlapping-spheres-3000 3000 3000 1
impls=reference-certified,reference-double,reference-float
# Bullet, when this build has the peers: it reports contact points, which are judged in part there.
bullet=$("$GJKREF" list | grep -c '^ *bullet-gjkepa-double ' || true)
(( bullet == 0 )) || impls+=,bullet-gjkepa-double
[[ -z "$PLUGINS" ]] || impls+=,always-separated
start=$(date +%s)
status=0
"$GJKREF" eval --json --oracle-time-limit 30 --impl "$impls" ${PLUGINS:+--plugin "$PLUGINS"} \
  "$WORK/overlapping-spheres-3000.json" > "$WORK/out.json" || status=$?
python3 - "$WORK/out.json" "$status" "$PLUGINS" "$bullet" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1]).readline())
assert line["result"] == "evaluated", line
o = line["oracle"]
assert o["verdict"] == "overlapping" and o["method"] == "certified", o
assert o["depth_method"] == "certified" and o["depth_methods_agree"] is None, o
assert o["penetration_depth"] == line["results"]["reference-certified"]["penetration_depth"], o
r = line["results"]
for name in ("reference-certified", "reference-double", "reference-float"):
    assert r[name]["agrees"] is True and "depth_error" in r[name], (name, r[name])
assert r["reference-certified"]["depth_error"] == 0.0, r["reference-certified"]
assert 0.9 < r["reference-certified"]["penetration_depth"] < 1.0, r["reference-certified"]
if sys.argv[4] != "0":
    assert "contacts_judged_in_part" in r["bullet-gjkepa-double"], r["bullet-gjkepa-double"]
    assert r["bullet-gjkepa-double"]["agrees"] is True, r["bullet-gjkepa-double"]  # its contacts meet the bounds
if sys.argv[3]:
    assert r["always-separated"]["finding"] == "separated-while-overlapping", r["always-separated"]
    assert sys.argv[2] == "1", "exit status " + sys.argv[2]
else:
    assert sys.argv[2] == "0", "exit status " + sys.argv[2]
print(line["name"], "depth judged beyond the hull's reach: PD =", r["reference-certified"]["penetration_depth"])
PY
echo "overlapping 3000 + 3000 points: $(( $(date +%s) - start )) s"
echo "eval-beyond-reach: all answered"
