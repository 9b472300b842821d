#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script (docs/fuzzing.md): every fuzz target of gjkref, built with the engine's
# compiler ($CC, $CXX), flags ($CFLAGS, $CXXFLAGS) and engine ($LIB_FUZZING_ENGINE), into $OUT with its seed
# corpus and dictionary. Intermediate files go to $WORK. Proven locally by scripts/clusterfuzzlite-local, which sets
# these variables by hand.
SOURCE="${SRC}/gjkref"
BUILD="${WORK}/gjkref-build"
PLUGINS="${WORK}/gjkref-plugins-build"
# 1. The differential targets' peers, as gjkref's built-in plugins: built apart, with the system's compiler and no
#    instrumentation, against the distribution's libraries (Ubuntu 24.04's libccd 2.1, FCL 0.7, Bullet 3.24, Box2D
#    2.4, Chipmunk 7, as Debian's). They talk to gjkref through a C ABI only (gjkref/plugin.h), in worker processes,
#    so libstdc++ in them and the engine's libc++ in the target never meet. They go to $OUT/gjkref-plugins, where a
#    target copied away from its build looks for them, with every library they load that the runner image lacks in
#    $OUT/lib (found through the plugins' RPATH, $ORIGIN/../lib, which also serves those libraries' own needs).
cmake -S "$SOURCE" -B "$PLUGINS" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_FLAGS= -DCMAKE_CXX_FLAGS= \
  -DCMAKE_BUILD_RPATH='$ORIGIN/../lib' -DCMAKE_MODULE_LINKER_FLAGS=-Wl,--disable-new-dtags \
  -DGJKREF_TESTS=OFF -DGJKREF_BENCH=OFF -DGJKREF_CLI=OFF
PLUGIN_TARGETS="gjkref-libccd gjkref-bullet-float gjkref-bullet-double gjkref-box2d gjkref-fcl gjkref-boost-geometry gjkref-chipmunk"
cmake --build "$PLUGINS" --target $PLUGIN_TARGETS
mkdir -p "$OUT/gjkref-plugins" "$OUT/lib"
for target in $PLUGIN_TARGETS; do
  cp "$PLUGINS/impl/$target.so" "$OUT/gjkref-plugins/"
  # Every shared library the plugin loads, but the C and C++ runtimes every image has.
  ldd "$PLUGINS/impl/$target.so" | awk '/=> \// { print $3 }' |
    grep -vE '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -n "$lib" "$OUT/lib/" || true; done
done
# 2. The targets, instrumented. UBSan's vptr check reports inside CGAL's Arrangement_2, used by the oracle: a false
#    alarm (docs/oracle.md).
cmake -S "$SOURCE" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS -fno-sanitize=vptr" \
  -DGJKREF_TESTS=OFF -DGJKREF_BENCH=OFF -DGJKREF_PEERS=ON -DGJKREF_PLUGINS_BUILT_APART=ON -DGJKREF_CLI=OFF \
  -DGJKREF_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
TARGETS="reference_2d reference_3d casefile differential_2d differential_3d"
cmake --build "$BUILD" --target $TARGETS
for target in $TARGETS; do
  cp "$BUILD/fuzz/$target" "$OUT/"
  (cd "$SOURCE/fuzz/corpus/$target" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
done
cp "$SOURCE/fuzz/reference.dict" "$OUT/reference_2d.dict"
cp "$SOURCE/fuzz/reference.dict" "$OUT/reference_3d.dict"
cp "$SOURCE/fuzz/reference.dict" "$OUT/differential_2d.dict"
cp "$SOURCE/fuzz/reference.dict" "$OUT/differential_3d.dict"
cp "$SOURCE/fuzz/casefile.dict" "$OUT/casefile.dict"
