#!/bin/sh
# induction-sweep-native.sh: builds bench/induction_sweep_native.c against a sed-edited copy of
# c/induction.c in build/sweep/ (the product's sources are untouched) and runs one configuration.
# usage: bench/induction-sweep-native.sh H L2 DH LR BETA2 WARMUP LS KLO KHI SEED0 SEED1 CONTROL [STEPS]
#   (KLO KHI 0 0: the product's k range, 4..15)
set -e
cd "$(dirname "$0")/.."
B=build/sweep
mkdir -p $B
if [ ! -x $B/sweep ] || [ c/induction.c -nt $B/sweep ] || [ bench/induction_sweep_native.c -nt $B/sweep ]; then
  sed -e 's|^#include "learn.h"|#include "learn.h"\nextern unsigned sweep_dead; extern float sweep_ls; extern int sweep_klo, sweep_khi;\nvoid sweep_adamw(float *, float *, float *, const float *, long, long, float, float);\nint sweep_klo, sweep_khi;|' \
      -e 's|int k = k_min(n) + learn_below(rng, k_max(n) - k_min(n) + 1);|int k = sweep_klo ? sweep_klo + learn_below(rng, sweep_khi - sweep_klo + 1) : k_min(n) + learn_below(rng, k_max(n) - k_min(n) + 1);|' \
      -e 's|if (grad) p_i\[target\] -= 1.0f;|if (grad) { for (int v = 0; v < vocab; v++) p_i[v] -= sweep_ls / (float)vocab; p_i[target] -= 1.0f - sweep_ls; }|' \
      -e 's|learn_adamw(t->params|sweep_adamw(t->params|' \
      -e 's|^            int lh = l \* H + h;$|            int lh = l * H + h;\n            if (sweep_dead >> lh \& 1u) continue;|' \
      c/induction.c > $B/induction.c
  grep -q 'sweep_dead >> lh' $B/induction.c && grep -q 'sweep_ls /' $B/induction.c && grep -q 'sweep_klo +' $B/induction.c && grep -q 'sweep_adamw(t->params' $B/induction.c
  ${CLANG:-clang} -O2 -Ic -o $B/sweep bench/induction_sweep_native.c $B/induction.c c/attention.c c/attention_backward.c c/learn.c -lm
fi
exec $B/sweep "$@"
