#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/c (built by the Makefile as build/fuzz_<name>).
#   scripts/fuzz.sh test NAME RUNS SECONDS   a seeded, bounded run (make test): -seed=1, at most
#                                            RUNS inputs and SECONDS seconds, from the committed
#                                            seeds in tests/c/corpus/NAME
#   scripts/fuzz.sh long NAME SECONDS        an open-ended run (make fuzz-long), niced, with a
#                                            seed from the clock (printed, to replay a find)
#   scripts/fuzz.sh replay NAME              every input of the corpus once (make coverage)
# The corpus a run finds goes to build/fuzz-corpus/NAME; the log to build/fuzz-NAME.log. A
# failure prints the end of the log and the input that failed (crash-*, in build/).
set -euo pipefail
mode=$1 name=$2
bin=build/fuzz_$name
seeds=tests/c/corpus/$name
corpus=build/fuzz-corpus/$name
log=build/fuzz-$name.log
mkdir -p "$corpus" "$seeds"
case $mode in
  test) args=(-seed=1 "-runs=$3" "-max_total_time=$4") ;;
  long) seed=$(date +%s); echo "fuzz $name: seed $seed, $3 s"; args=("-seed=$seed" "-max_total_time=$3") ;;
  replay) args=(-runs=0) ;;
  *) echo "usage: scripts/fuzz.sh test|long|replay NAME ..." >&2; exit 2 ;;
esac
run=("$bin" "${args[@]}" -max_len=4096 -timeout=60 -rss_limit_mb=2048 -artifact_prefix=build/ "$corpus" "$seeds")
[ "$mode" = long ] && run=(nice "${run[@]}")
if ! "${run[@]}" > "$log" 2>&1; then
  tail -n 40 "$log"
  echo "fuzz $name: FAILED (full log: $log; the input is the build/crash-* or build/timeout-* it names)" >&2
  exit 1
fi
# "Done 60000 runs in 21 second(s)" (test, long), "INFO: ... corpus: N inputs" (replay)
echo "fuzz $name: $(grep -E '^Done' "$log" | tail -n 1 || tail -n 1 "$log")"
