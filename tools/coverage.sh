#!/usr/bin/env bash
# make coverage: clang's source-based coverage of c/ (line and branch), reached by the native
# C tests and by every input of the fuzz corpora, each replayed once: the committed seeds
# (tests/c/corpus/NAME.b64) and build/fuzz-corpus/NAME (what the last make test or make
# fuzz-long found, if any).
#   tools/coverage.sh "C_TESTS" "FUZZ_TARGETS" "SOURCES"   (the Makefile passes them)
# The binaries are build/cov/test_* and build/cov/fuzz_* (built with -fprofile-instr-generate
# -fcoverage-mapping). Writes build/cov/report.txt and the annotated sources to build/cov/html/.
set -euo pipefail
tests=$1 fuzzers=$2 sources=$3
tools/setup.sh coverage
profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata)
cov=$(command -v llvm-cov-14 || command -v llvm-cov)
out=build/cov
rm -rf "$out/profiles" "$out/html" && mkdir -p "$out/profiles"
objects=() # -object A -object B ...: llvm-cov takes the first one without its -object
for t in $tests; do
  LLVM_PROFILE_FILE=$out/profiles/test_$t.profraw "$out/test_$t" > "$out/test_$t.log" 2>&1 || { cat "$out/test_$t.log"; exit 1; }
  objects+=(-object "$out/test_$t")
done
for t in $fuzzers; do
  # the committed seeds (unpacked to build/fuzz-seeds/) and what runs found
  tools/fuzz.sh unpack "$t"
  LLVM_PROFILE_FILE=$out/profiles/fuzz_$t.profraw "$out/fuzz_$t" -runs=0 -rss_limit_mb=4096 "build/fuzz-corpus/$t" "build/fuzz-seeds/$t" \
    > "$out/fuzz_$t.log" 2>&1 || { tail -n 20 "$out/fuzz_$t.log"; exit 1; }
  echo "coverage: fuzz_$t replayed $(ls "build/fuzz-seeds/$t" | wc -l) seeds and $(ls "build/fuzz-corpus/$t" | wc -l) found inputs"
  objects+=(-object "$out/fuzz_$t")
done
"$profdata" merge -sparse "$out"/profiles/*.profraw -o "$out/c.profdata"
# shellcheck disable=SC2086
"$cov" report "${objects[@]:1}" -instr-profile "$out/c.profdata" $sources | tee "$out/report.txt"
# shellcheck disable=SC2086
"$cov" show "${objects[@]:1}" -instr-profile "$out/c.profdata" -show-branches=count -format=html -output-dir="$out/html" $sources
node tools/coverage-check.mjs "$out/report.txt"
echo "coverage: every line and branch in $out/html/index.html"
