#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script (docs/fuzzing.md): every fuzz target of gjkref, built with the engine's
# compiler ($CC, $CXX), flags ($CFLAGS, $CXXFLAGS) and engine ($LIB_FUZZING_ENGINE), into $OUT with its seed
# corpus and dictionary. Intermediate files go to $WORK. Proven locally by running it with these variables set by hand.
SOURCE="${SRC}/gjkref"
BUILD="${WORK}/gjkref-build"
# UBSan's vptr check reports inside CGAL's Arrangement_2, used by the oracle: a false alarm (docs/oracle.md).
cmake -S "$SOURCE" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS -fno-sanitize=vptr" \
  -DGJKREF_TESTS=OFF -DGJKREF_BENCH=OFF -DGJKREF_PEERS=OFF -DGJKREF_CLI=OFF \
  -DGJKREF_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
TARGETS="reference_2d reference_3d casefile"
cmake --build "$BUILD" --target $TARGETS
for target in $TARGETS; do
  cp "$BUILD/fuzz/$target" "$OUT/"
  (cd "$SOURCE/fuzz/corpus/$target" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
done
cp "$SOURCE/fuzz/reference.dict" "$OUT/reference_2d.dict"
cp "$SOURCE/fuzz/reference.dict" "$OUT/reference_3d.dict"
cp "$SOURCE/fuzz/casefile.dict" "$OUT/casefile.dict"
