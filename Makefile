# Attention Explorer. `make help` lists the targets.
# Build output goes to build/ and web/gen/ (both git-ignored); the build is deterministic.

SHELL := /bin/bash
PORT ?= 8000
EMCC ?= emcc
CLANG ?= clang
FUZZ_RUNS ?= 200000
FUZZ_SECONDS ?= 120

# The Wasm links these flags with no imports, no Emscripten JS glue, and a heap that grows.
WASM_LINK  := -sSTANDALONE_WASM --no-entry -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=64MB \
              -sTOTAL_STACK=65536 -sINITIAL_MEMORY=1MB
# Size: only the forward pass (c/attention.c) is worth optimising for speed (-O3 with SIMD,
# -O2 for the scalar fallback); training, the labs' helpers and the exports are built for size.
WASM_SRC   := c/attention.c c/attention_backward.c c/train.c c/wasm_exports.c
# make mutate-c builds its mutants with WERROR= (a compiler warning is not a test)
WERROR     ?= -Werror
SAN_FLAGS  := -std=c99 -g -O1 -Wall -Wextra $(WERROR) -fsanitize=address,undefined -fno-sanitize-recover=all -Ic
CORE       := c/attention.c c/attention.h
TRAIN      := c/attention_backward.c c/train.c c/train.h
NODE_TESTS  = $(wildcard tests/*.test.mjs) $(wildcard tests/browser/*.test.mjs)

.PHONY: all help run test test-c test-fuzz test-node bench setup setup-test clean dist mutate-c mutate-js

all: setup web/gen/wasm-source.js web/gen/explorer-css.js web/gen/labs-css.js web/gen/train-css.js ## build the Wasm core (SIMD and scalar) and its JS embedding

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/' | expand -t 12

setup: ## check for (as root: install) emcc and node
	@scripts/setup.sh build

setup-test: ## check for (as root: install) clang, the three browsers (chromium, firefox-esr, webkit2gtk-driver + xvfb) and node_modules too
	@scripts/setup.sh test

build/simd/attention.o: c/attention.c c/attention.h Makefile
	@mkdir -p build/simd
	$(EMCC) -O3 -msimd128 -Ic -c $< -o $@

build/simd/%.o: c/%.c $(CORE) $(TRAIN) Makefile
	@mkdir -p build/simd
	$(EMCC) -Os -msimd128 -Ic -c $< -o $@

build/scalar/attention.o: c/attention.c c/attention.h Makefile
	@mkdir -p build/scalar
	$(EMCC) -O2 -Ic -c $< -o $@

build/scalar/%.o: c/%.c $(CORE) $(TRAIN) Makefile
	@mkdir -p build/scalar
	$(EMCC) -Os -Ic -c $< -o $@

build/attention-simd.wasm: $(WASM_SRC:c/%.c=build/simd/%.o)
	$(EMCC) -O3 -msimd128 $(WASM_LINK) $^ -o $@

build/attention-scalar.wasm: $(WASM_SRC:c/%.c=build/scalar/%.o)
	$(EMCC) -O2 $(WASM_LINK) $^ -o $@

web/gen/wasm-source.js: build/attention-simd.wasm build/attention-scalar.wasm scripts/embed-wasm.mjs
	node scripts/embed-wasm.mjs build/attention-simd.wasm build/attention-scalar.wasm web/gen

web/gen/explorer-css.js: web/style.css scripts/embed-css.mjs
	node scripts/embed-css.mjs web/style.css $@

web/gen/labs-css.js: web/labs/labs.css scripts/embed-css.mjs
	node scripts/embed-css.mjs web/labs/labs.css $@ LABS_CSS

web/gen/train-css.js: web/train.css scripts/embed-css.mjs
	node scripts/embed-css.mjs web/train.css $@ TRAIN_CSS

dist: all ## write dist/: one offline attention-explorer.js (Wasm inside), index.html and lab.html that open from file://
	node scripts/build-dist.mjs

run: all ## serve the explorer on http://127.0.0.1:$(PORT)/ (PORT= to change)
	node web/serve.mjs $(PORT)

test: setup-test all test-c test-fuzz test-node ## build and run every test

# Each source is compiled once under the sanitizers into build/san/ and linked into the tests
# that use it, so a change to one file recompiles that file only (make mutate-c relies on this).
build/san/%.o: c/%.c c/attention.h c/train.h Makefile
	@mkdir -p build/san
	$(CLANG) $(SAN_FLAGS) -c $< -o $@

build/san/%.o: tests/c/%.c tests/c/check.h c/attention.h c/train.h Makefile
	@mkdir -p build/san
	$(CLANG) $(SAN_FLAGS) -c $< -o $@

build/test_attention: build/san/attention.o build/san/test_attention.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_backward: build/san/attention.o build/san/attention_backward.o build/san/test_backward.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_train: build/san/attention.o build/san/attention_backward.o build/san/train.o build/san/test_train.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_fused: build/san/attention.o build/san/test_fused.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_labs: build/san/attention.o build/san/test_labs.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

test-c: setup-test build/test_attention build/test_fused build/test_backward build/test_labs build/test_train ## native C tests under AddressSanitizer and UBSan
	build/test_attention
	build/test_fused
	build/test_backward
	build/test_labs
	build/test_train

build/fuzz_attention: $(CORE) tests/c/fuzz_attention.c
	@mkdir -p build
	$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ic c/attention.c tests/c/fuzz_attention.c -lm -o $@

test-fuzz: setup-test build/fuzz_attention ## a bounded, seeded libFuzzer run of the C entry points (FUZZ_RUNS, FUZZ_SECONDS)
	@rm -rf build/fuzz-corpus && mkdir -p build/fuzz-corpus
	@set -o pipefail; build/fuzz_attention -seed=1 -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build/fuzz-corpus \
	  > build/fuzz.log 2>&1 || { tail -n 40 build/fuzz.log; echo "fuzz: failed, full log in build/fuzz.log"; exit 1; }
	@grep -E '^Done' build/fuzz.log

test-node: setup-test all dist ## Node tests: core, ONNX vectors, bad input, page modules, browser
	node --test $(NODE_TESTS)

build/bench_native: $(CORE) bench/bench_native.c
	@mkdir -p build
	cc -std=c99 -O2 -Ic c/attention.c bench/bench_native.c -lm -o $@

bench: setup-test all build/bench_native ## time forward() (Wasm SIMD, scalar, native -O2, plain JS), training steps/s and the page's frames
	node bench/bench.mjs
	node bench/bench-train.mjs
	node tests/browser/frame-bench.mjs

mutate-c: setup-test ## mutation testing of c/ (seeded, stratified; tens of minutes): killed, survived, each survivor (MUTATE_ARGS=--count=...)
	nice node scripts/mutate-c.mjs $(MUTATE_ARGS)

mutate-js: setup-test all ## mutation testing of the pure JS modules with StrykerJS (tens of minutes): per file, each survivor
	nice npx stryker run stryker.config.mjs $(MUTATE_ARGS)
	node scripts/mutate-js-report.mjs

clean: ## remove build output
	rm -rf build web/gen dist tests/out
