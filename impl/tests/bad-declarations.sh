#!/usr/bin/env bash
# CTest impl.bad-declarations (docs/comparing.md, "Writing a plugin"): a plugin whose declaration breaks gjkref/plugin.h
# is refused when it is listed, with exit status 2 and the reason, before any case runs — a name that climbs out of
# --out ("../../../escaped") writes nothing anywhere, a name outside [a-z0-9-]+, dimensions = 0, a scalar gjkref
# does not know ("float32": judged as double, a float implementation's right answers would be refused) and a normal
# declared without a depth (never asked for, so never judged) are named; so is a library that writes into gjkref's
# channel while it is listed (a string length of 4 GiB, which gjkref allocated: 4.2 GB and 22 s before a load timeout),
# and an implementation named as a group of built-in ones ("reference": --impl reference chose it alone, silently).
# An empty --plugin is refused as naming no library (dlopen("") opened gjkref itself).
# Usage: bad-declarations.sh GJKREF SOURCE_DIR WORKDIR LIB1 LIB2 LIB3 LIB4 LIB5 LIB6 LIB7
set -uo pipefail
GJKREF="$1"
SRC="$2"
WORK="$3"
shift 3
rm -rf "$WORK"
mkdir -p "$WORK/a/b/c"
fail() { echo "bad-declarations: $*" >&2; exit 1; }
expect=("is named '../../../escaped': a name is 1 to 64 characters from a-z, 0-9 and '-'"
        "is named 'My GJK': a name is 1 to 64 characters"
        "'no-dimensions' declares dimensions = 0: GJKREF_2D, GJKREF_3D or both are expected"
        "'float32-gjk' declares the scalar 'float32': gjkref judges \"float\", \"double\", \"long double\", \"exact\""
        "'normal-without-depth' declares GJKREF_CAN_NORMAL or GJKREF_CAN_CONTACT without GJKREF_CAN_PENETRATE"
        "bytes while listing the library's implementations: the library wrote into gjkref's channel (fd 4) itself"
        "its implementation 'reference' is named in the group of the built-in reference implementations")
for k in 0 1 2 3 4 5 6; do
  lib="$1"
  shift
  for command in check eval; do
    if [ "$command" = check ]; then
      args=(check --plugin "$lib" --cases 2 --seed 1 --no-progress --out "$WORK/a/b/c/out")
    else
      args=(eval --plugin "$lib" "$SRC/cases/examples/touching-squares-2d.json")
    fi
    status=0
    "$GJKREF" "${args[@]}" > "$WORK/out.txt" 2> "$WORK/err.txt" || status=$?
    [ "$status" -eq 2 ] || fail "$command with $lib exited $status, not 2"
    grep -qF "${expect[$k]}" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "$command with $lib: no reason given"; }
  done
done
status=0
"$GJKREF" eval --plugin "" "$SRC/cases/examples/touching-squares-2d.json" > /dev/null 2> "$WORK/err.txt" || status=$?
[ "$status" -eq 2 ] && grep -qF -- "--plugin is empty: it names no library" "$WORK/err.txt" ||
  fail "an empty --plugin: exit $status, $(cat "$WORK/err.txt")"
[ -z "$(find "$WORK" -name 'escaped*')" ] || fail "something named 'escaped' was written"
[ ! -e "$WORK/a/b/c/out/counterexamples" ] || fail "counterexamples were written for a refused plugin"
echo "bad-declarations: all refused"
