#!/usr/bin/env bash
# Installs every Debian package gjkref's build and tests need, when it is missing.
# Idempotent and non-interactive: packages already installed are left alone; the ones it installs are printed.
# Usage: scripts/bootstrap.sh [coverage] [fuzz] [bench] [campaigns]
#   no argument: the packages the default build uses;
#   coverage:    and clang and llvm (scripts/coverage);
#   bench:       and valgrind (scripts/instruction-counts: callgrind and its client-request header);
#   fuzz:        and clang with its libFuzzer and sanitizer runtimes (the fuzz preset, scripts/fuzz-campaign);
#   campaigns:   and gperftools' tcmalloc (scripts/ledger-campaigns: a faster malloc for the campaign binaries).
set -euo pipefail

# One package a line, with what needs it. Keep in step with CMakeLists.txt.
PACKAGES=(
  g++                 # the compiler (C++20)
  cmake               # build system (>= 3.25)
  ninja-build         # build tool used by the presets
  pkg-config          # finds third-party libraries
  libgmp-dev          # exact rationals (mpq_class) for the exact reference
  libgtest-dev        # unit tests
  libcli11-dev        # the gjkref command line
  nlohmann-json3-dev  # the gjkref-case/1 case files
  libcgal-dev         # the exact oracles (convex hulls)
  libboost-dev        # CGAL's dependency (headers)
  libmpfr-dev         # correctly rounded distances in the oracle
  libbenchmark-dev    # bench/ (Google Benchmark)
  librapidcheck-dev   # proptests/ (RapidCheck, with its GoogleTest integration)
  libccd-dev          # impl/: libccd's GJK, MPR and penetration
  libfcl-dev          # impl/: FCL 0.7's GJK solvers and its collide/distance API
  libeigen3-dev       # impl/: FCL's vectors
  libbullet-dev       # impl/: Bullet's btGjkPairDetector and btGjkEpaSolver2 (float and double builds)
  libbox2d-dev        # impl/: Box2D's b2Distance and b2CollidePolygons (2D, float)
  libchipmunk-dev     # impl/: Chipmunk2D's cpShapesCollide (2D, double)
  python3             # tests that read report.json (impl/tests/judge-plugins.sh, cli/tests/check-interrupt.sh)
  procps              # pgrep and ps in cli/tests/check-interrupt.sh
  git                 # scripts/check-campaign-ledger (CTest scripts.campaign-ledger) builds a repository to test on
)
for mode in "$@"; do
  case "$mode" in
    coverage)
      PACKAGES+=(
        clang               # scripts/coverage: source-based coverage
        libclang-rt-14-dev  # its profile runtime (libclang_rt.profile), only recommended by clang's packages
        llvm                # scripts/coverage: llvm-profdata, llvm-cov
      ) ;;
    fuzz)
      PACKAGES+=(
        clang               # the fuzz preset's compiler
        libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes of clang 14
        zip unzip           # scripts/clusterfuzzlite-local: seed corpora as OSS-Fuzz packs them
      ) ;;
    bench)
      PACKAGES+=(
        valgrind            # scripts/instruction-counts: callgrind, and valgrind/callgrind.h for peers_bench
      ) ;;
    campaigns)
      PACKAGES+=(
        libtcmalloc-minimal4  # scripts/ledger-campaigns: GMP's many small allocations, 10-25 % of an EPA run's time
      ) ;;
    *) echo "bootstrap: unknown mode '$mode' (coverage, fuzz, bench, campaigns)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "bootstrap: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "bootstrap: installed ${missing[*]}"
