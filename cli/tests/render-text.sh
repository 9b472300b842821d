#!/usr/bin/env bash
# CTest cli.render-text (docs/comparing.md, "Pictures"): what render writes and says, whatever the case holds.
#   - A write that fails (here a file size limit) leaves no picture cut short and keeps the one already there, exit 2.
#   - A word longer than a line of the text is cut between characters, never inside a UTF-8 sequence: the SVG stays
#     valid UTF-8 and XML (a 138-character word of 'a's and 'é's was cut inside an 'é').
#   - A warm-started case is drawn with the path the reference took from its warm start, and the text says so (the
#     path drawn was the cold one, the same picture as the case without its warm start).
#   - A case name's control characters reach stderr escaped (one_line), not as escape sequences; a plugin's detail
#     reaches eval's text table so too.
# And eval: a case file whose name is not UTF-8 still gets its JSON line (the name's bad byte as U+FFFD), and so do
# the cases after it (json.dump threw, and the whole run stopped with nothing written); on invalid input its oracle
# block reports no distance, certificate or method; nor does render's picture. A failed rename names its error.
# Usage: render-text.sh GJKREF MISBEHAVING_PLUGIN SOURCE_DIR WORKDIR
set -uo pipefail
GJKREF="$1"
PLUGIN="$2"
SRC="$3"
WORK="$4"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "render-text: $*" >&2; exit 1; }
SQUARES="$SRC/cases/examples/touching-squares-2d.json"

# A failed write keeps the picture already there.
"$GJKREF" render --impl reference "$SQUARES" --out "$WORK/kept.svg" > /dev/null || fail "the first picture failed"
cp "$WORK/kept.svg" "$WORK/kept.before"
status=0
(trap '' XFSZ; ulimit -f 1; "$GJKREF" render --impl reference "$SQUARES" --out "$WORK/kept.svg") > /dev/null \
  2> "$WORK/limited.err" || status=$?
[ "$status" -eq 2 ] || fail "a write past the file size limit exited $status, not 2: $(cat "$WORK/limited.err")"
grep -q "cannot write" "$WORK/limited.err" || fail "no reason for the failed write: $(cat "$WORK/limited.err")"
cmp -s "$WORK/kept.svg" "$WORK/kept.before" || fail "a failed write changed the picture already there"
[ ! -e "$WORK/kept.svg.partial" ] || fail "a failed write left its partial file"

# A long non-ASCII word, as a plugin's refusal says it.
word="$(python3 -c "print('a' * 118 + 'é' * 20)")"
GJKREF_TEST_DETAIL="$word" GJKREF_TEST_REFUSE=1 "$GJKREF" render "$SQUARES" --impl misbehaving --plugin "$PLUGIN" \
  --out "$WORK/wrapped.svg" > /dev/null || fail "render with a long word exited $?"
python3 - "$WORK/wrapped.svg" <<'PY' || fail "the picture with a long non-ASCII word is not valid UTF-8 XML"
import sys, xml.etree.ElementTree as E
text = open(sys.argv[1], 'rb').read().decode('utf-8')  # raises on a cut sequence
E.fromstring(text)
assert 'é' * 18 in text, 'the word is not drawn'
PY

# A warm start: the path is the warm-started one.
WARM="$SRC/cases/findings/warm-coplanar-false-enclosure.json"
python3 - "$WARM" "$WORK/cold.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
del c['warm_start']
json.dump(c, open(sys.argv[2], 'w'))
PY
"$GJKREF" render --impl reference-exact "$WARM" --out "$WORK/warm.svg" > /dev/null || fail "the warm case was not drawn"
"$GJKREF" render --impl reference-exact "$WORK/cold.json" --out "$WORK/cold.svg" > /dev/null ||
  fail "the cold case was not drawn"
grep -q "warm-started from pairs (0, 0)" "$WORK/warm.svg" || fail "the picture does not name the warm start"
warm_path=$(grep -o 'reference path: [0-9]* simplices' "$WORK/warm.svg")
cold_path=$(grep -o 'reference path: [0-9]* simplices' "$WORK/cold.svg")
[ "$warm_path" != "$cold_path" ] || fail "the warm and cold cases have the same path ($warm_path): the warm start was not used"

# Control characters in a plugin's detail, in eval's text table: escaped (they reached the terminal: a clear-screen
# sequence and a newline broke the table).
GJKREF_TEST_DETAIL=$'\x1b[2Jclear\nnext' GJKREF_TEST_REFUSE=1 "$GJKREF" eval "$SQUARES" --impl misbehaving \
  --plugin "$PLUGIN" > "$WORK/detail.txt" || fail "eval with a detail of control characters exited $?"
! grep -q $'\x1b' "$WORK/detail.txt" && grep -qF 'misbehaving               refused         -' "$WORK/detail.txt" &&
  grep -qF '\x1b[2Jclear\nnext' "$WORK/detail.txt" || fail "eval's table prints the detail raw: $(cat -A "$WORK/detail.txt")"

# A case file's error quotes its input: on one line, valid UTF-8, at most about 1,000 bytes (a 20 MB coordinate string
# made a 20 MB line on stderr; a name with control characters reached the terminal; a value cut after 40 bytes inside
# a character reached stderr as invalid UTF-8), on stderr and in eval's JSON.
python3 - "$WORK/quoting.json" "$WORK/long.json" "$WORK/cut.json" <<'PY'
import json, sys
json.dump({'format': 'gjkref-case/1', 'name': 'esc \x1b[2J\nname', 'dim': 2, 'a': {'points': [[0, 0]]},
           'b': {'points': [['oops', 1]]}}, open(sys.argv[1], 'w'))
json.dump({'format': 'gjkref-case/1', 'name': 'long', 'dim': 2, 'a': {'points': [[0, 0]]},
           'b': {'points': [['9' * 200000, 1]]}}, open(sys.argv[2], 'w'))
json.dump({'format': 'gjkref-case/1', 'name': 'cut', 'dim': 2, 'a': {'points': [[0, 0]]},
           'b': {'points': [[['x' + 'é' * 30], 1]]}}, open(sys.argv[3], 'w'), ensure_ascii=False)
PY
for f in quoting long cut; do
  status=0
  "$GJKREF" eval --json "$WORK/$f.json" > "$WORK/$f.out" 2> "$WORK/$f.err" || status=$?
  [ "$status" -eq 2 ] || fail "eval of the malformed $f.json exited $status"
  python3 - "$WORK/$f.err" "$WORK/$f.out" <<'PY' || fail "$f.json: the message is not one short line of UTF-8: $(head -c 300 "$WORK/$f.err")"
import json, sys
err = open(sys.argv[1], 'rb').read()
text = err.decode('utf-8')  # raises on invalid UTF-8
assert text.count('\n') == 1 and '\x1b' not in text and len(err) < 1200, (len(err), text[:200])
reason = json.loads(open(sys.argv[2]).readline())['reason']
assert '\x1b' not in reason and '\n' not in reason and len(reason.encode()) < 1200, reason[:200]
PY
done
grep -qF 'bytes more)' "$WORK/long.err" || fail "the long message does not say it was cut: $(head -c 300 "$WORK/long.err")"

# Control characters in a case name, in render's messages.
python3 - "$WORK/escape.json" <<'PY'
import json, sys
p = lambda n, s: [[i % 17 + s, i // 17 % 13, i // 221] for i in range(n)]
json.dump({'format': 'gjkref-case/1', 'name': 'esc \x1b[31mred\x1b[0m bell\x07', 'dim': 3,
           'a': {'points': p(1001, 0)}, 'b': {'points': p(1000, 40)}}, open(sys.argv[1], 'w'))
PY
"$GJKREF" render "$WORK/escape.json" --out "$WORK/escape.svg" > /dev/null 2> "$WORK/escape.err"
[ $? -eq 2 ] || fail "the too-large case was not refused"
if grep -q $'\x1b' "$WORK/escape.err" || grep -q $'\x07' "$WORK/escape.err"; then
  fail "a control character of the case name reached stderr"
fi
grep -qF 'esc \x1b[31mred\x1b[0m bell\x07' "$WORK/escape.err" || fail "the name is not in the message, escaped: $(cat "$WORK/escape.err")"

# eval --json on a case file whose name is not UTF-8, then another.
bad="$WORK/bad"$'\xff'"name.json"
cp "$SQUARES" "$bad"
status=0
"$GJKREF" eval --json --impl reference-double "$bad" "$SRC/cases/examples/examples.json" > "$WORK/eval.jsonl" \
  2> "$WORK/eval.err" || status=$?
[ "$status" -eq 0 ] || fail "eval exited $status: $(cat "$WORK/eval.err")"
python3 - "$WORK/eval.jsonl" "$SRC/cases/examples/examples.json" <<'PY' || fail "eval's lines are not one per case"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
expected = 1 + len(json.load(open(sys.argv[2]))['cases'])
assert len(lines) == expected, (len(lines), expected)
assert lines[0]['file'].endswith('bad\ufffdname.json') and lines[0]['result'] == 'evaluated', lines[0]
assert all(l['result'] == 'evaluated' for l in lines), lines
PY
# eval --json on invalid input: no distance, no certificate, no method (a distance of 0 "checked" by the hull method was
# written).
"$GJKREF" eval --json --impl reference-double "$SRC/impl/tests/cases/non-finite.json" > "$WORK/invalid.jsonl" ||
  fail "eval on invalid input exited $?"
python3 - "$WORK/invalid.jsonl" <<'PY' || fail "eval's oracle block for invalid input reports a distance or a method"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 4, len(lines)
for line in lines:
    o = line['oracle']
    assert o['verdict'] == 'invalid-input', o
    assert o['distance'] is None and o['squared_distance'] is None, o
    assert o['certificate'] == 'none' and o['method'] == 'none' and o['second_method'] == 'none', o
    assert o['methods_agree'] is None, o
PY
"$GJKREF" eval --impl reference-double "$SRC/impl/tests/cases/non-finite.json" > "$WORK/invalid.txt" ||
  fail "eval on invalid input exited $?"
[ "$(grep -c 'oracle: invalid-input (no method runs on it' "$WORK/invalid.txt")" -eq 4 ] && ! grep -q 'd = 0' "$WORK/invalid.txt" ||
  fail "eval's text for invalid input reports a distance: $(head -3 "$WORK/invalid.txt")"
# render on invalid input: the picture's text reports no distance either ("distance 0, closest feature none" was
# written, a placeholder, not the oracle's answer).
python3 - "$SRC/impl/tests/cases/non-finite.json" "$WORK/invalid-one.json" <<'PY'
import json, sys
one = json.load(open(sys.argv[1]))['cases'][0]
one['format'] = 'gjkref-case/1'
json.dump(one, open(sys.argv[2], 'w'))
PY
"$GJKREF" render --impl reference-double "$WORK/invalid-one.json" --out "$WORK/invalid.svg" > /dev/null ||
  fail "render on invalid input exited $?"
grep -q 'oracle: invalid-input (no distance)' "$WORK/invalid.svg" && ! grep -q 'distance 0' "$WORK/invalid.svg" ||
  fail "render's text for invalid input reports a distance: $(grep -o 'oracle: [^<]*' "$WORK/invalid.svg" | head -2)"
# A rename that fails names its own error (the removal of the partial file after it overwrote the error code, and
# "cannot write : Success" was printed).
status=0
"$GJKREF" render --impl reference "$SQUARES" --out "$WORK" > /dev/null 2> "$WORK/rename.err" || status=$?
[ "$status" -eq 2 ] && ! grep -q 'Success' "$WORK/rename.err" ||
  fail "a picture over a directory: exit $status, $(cat "$WORK/rename.err")"
echo "render-text: checked"
