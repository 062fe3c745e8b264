#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/c (built by the Makefile as build/fuzz_<name>).
#   tools/fuzz.sh test NAME RUNS SECONDS   a seeded, bounded run (make test): -seed=1, at most
#                                            RUNS inputs and SECONDS seconds
#   tools/fuzz.sh long NAME SECONDS        an open-ended run (make fuzz-long), niced, with a
#                                            seed from the clock (printed, to replay a find)
#   tools/fuzz.sh replay NAME              every input once
#   tools/fuzz.sh unpack NAME              only unpack the committed seeds (make coverage, which
#                                            replays them with its own build and needs no other)
#   tools/fuzz.sh keep NAME                the smallest set of seeds and found inputs that keeps
#                                            every feature reached, written back to the seeds
# Every run starts from the committed seeds, tests/c/corpus/NAME.b64 (one input a line, base64,
# sorted), unpacked to build/fuzz-seeds/NAME, and from what earlier runs found in
# build/fuzz-corpus/NAME, where it adds what it finds. The log goes to build/fuzz-NAME.log; a
# failure prints its end, and the input that failed is build/crash-* (build/fuzz_NAME FILE replays it).
set -euo pipefail
mode=$1 name=$2
bin=build/fuzz_$name
packed=tests/c/corpus/$name.b64
seeds=build/fuzz-seeds/$name
corpus=build/fuzz-corpus/$name
log=build/fuzz-$name.log
rm -rf "$seeds" && mkdir -p "$seeds" "$corpus"
if [ -f "$packed" ]; then
  k=0
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    k=$((k + 1))
    printf '%s' "$line" | base64 -d > "$seeds/seed-$k"
  done < "$packed"
fi
case $mode in
  test) args=(-seed=1 "-runs=$3" "-max_total_time=$4") ;;
  long) seed=$(date +%s); echo "fuzz $name: seed $seed, $3 s"; args=("-seed=$seed" "-max_total_time=$3") ;;
  replay) args=(-runs=0) ;;
  unpack) exit 0 ;;
  keep)
    kept=build/fuzz-kept/$name
    rm -rf "$kept" && mkdir -p "$kept"
    "$bin" -merge=1 -max_len=4096 "$kept" "$seeds" "$corpus" > "$log" 2>&1 || { tail -n 20 "$log"; exit 1; }
    for f in "$kept"/*; do base64 -w0 "$f"; echo; done | LC_ALL=C sort > "$packed"
    echo "fuzz $name: $(wc -l < "$packed") seeds kept in $packed"
    exit 0 ;;
  *) echo "usage: tools/fuzz.sh test|long|replay|unpack|keep NAME ..." >&2; exit 2 ;;
esac
run=("$bin" "${args[@]}" -max_len=4096 -timeout=60 -rss_limit_mb=2048 -artifact_prefix=build/ "$corpus" "$seeds")
[ "$mode" = long ] && run=(nice "${run[@]}")
if ! "${run[@]}" > "$log" 2>&1; then
  tail -n 40 "$log"
  echo "fuzz $name: FAILED (full log: $log; the input is the build/crash-* or build/timeout-* it names)" >&2
  exit 1
fi
# "Done 60000 runs in 21 second(s)" (test, long); replay prints no such line
echo "fuzz $name: $(grep -E '^Done' "$log" | tail -n 1 || echo "$(( $(ls "$corpus" | wc -l) + $(ls "$seeds" | wc -l) )) inputs replayed")"
