# Attention Explorer. `make help` lists the targets.
# Build output goes to build/, web/gen/, dist/ and site/ (all git-ignored); the build is deterministic.

SHELL := /bin/bash
PORT ?= 8000
EMCC ?= emcc
WASM_OPT ?= wasm-opt
CLANG ?= clang
FUZZ_SECONDS ?= 45        # make test: the most each fuzz target may take (its runs are fixed below)
FUZZ_LONG_SECONDS ?= 100  # make fuzz-long: seconds for each of the six fuzz targets (10 minutes in all)
PROPERTY_RUNS ?= 20000    # make fuzz-long: fast-check runs of each property of tests/core/property.test.mjs

# The Wasm links these flags with no imports, no Emscripten JS glue, and a heap that grows.
# INITIAL_MEMORY holds the static slots of the trainers and induction models (about 2.5 MB) and the
# tile lab's running state (about 0.6 MB, c/wasm_exports.c), and little more: the forward arena grows
# memory when it needs room (tests/core/fused.test.mjs counts that).
WASM_LINK  := -sSTANDALONE_WASM --no-entry -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=64MB \
              -sTOTAL_STACK=65536 -sINITIAL_MEMORY=4MB
# Three cores, each in a SIMD and a scalar build (web/core/attention.js loadAttention's `core`): the full
# one (every export: forward, labs, trainers, induction models); the trainer core, without the
# induction models (c/wasm_exports.c with -DAE_NO_INDUCTION), for the training page; the forward
# core (-DAE_FORWARD_ONLY: the head and the labs' softmax rows), half the size, for the explorer
# and labs pages. The linker drops the functions no export reaches.
# Size: only the forward and backward passes (c/attention.c, c/attention_backward.c) are worth
# optimising for speed (-O3 with SIMD, -O2 for the scalar fallback); the rest (the trainers, the
# labs' helpers, the exports) is built for size.
WASM_SRC   := c/attention.c c/attention_backward.c c/learn.c c/train.c c/induction.c c/wasm_exports.c
WASM_FORWARD_OBJ := attention_forward.o wasm_exports_forward.o
WASM_TRAINER_OBJ := attention.o attention_backward.o learn.o train.o wasm_exports_trainer.o
# make mutate-c builds its mutants with WERROR= (a compiler warning is not a test)
WERROR     ?= -Werror
SAN_FLAGS  := -std=c99 -g -O1 -Wall -Wextra $(WERROR) -fsanitize=address,undefined -fno-sanitize-recover=all -Ic
CORE       := c/attention.c c/attention.h
TRAIN      := c/attention_backward.c c/learn.c c/learn.h c/train.c c/train.h c/induction.c c/induction.h
# The one table of the Wasm exports and their ids, and the header that declares them from it.
EXPORTS    := c/wasm_exports.def c/wasm_exports.h
NODE_TESTS  = $(wildcard tests/*/*.test.mjs)
NODE_TESTS := $(filter-out tests/hosts/%,$(NODE_TESTS))
# A test file that starts a browser lives in tests/browser/ (tests/tools/lists.test.mjs checks that
# no other file imports playwright-core or tests/browser/helpers.mjs): the rest are the unit tests.
NODE_BROWSER_TESTS := $(filter tests/browser/%,$(NODE_TESTS))
NODE_UNIT_TESTS    := $(filter-out tests/browser/%,$(NODE_TESTS))
# node --test runs os.availableParallelism() - 1 files at once: one on a 2-core machine. The unit
# tests are independent processes with no timing asserts, so they run two at a time; so do the
# browser files (each starts its own server on a free port and its own browser, and waits only for
# what the page says, never for a time), which spend much of their time waiting on the browser.
UNIT_CONCURRENCY ?= 2
BROWSER_CONCURRENCY ?= 2
# Measured on a 2-core machine shared with other work (load average 5-11): make test-quick takes
# 47 s (the unit files 33 s two at a time, the slowest tests/induction/induction.test.mjs 9 s,
# tests/explorer/export.test.mjs 7 s). The browser files took 12+ minutes one at a time, the slowest
# tests/browser/axe-explorer.test.mjs (176 s) and labs.test.mjs (117 s).

.PHONY: all help run dev site screenshot test test-quick test-unit test-hosts test-c test-fuzz fuzz-runs test-node test-types bench setup setup-test clean dist fuzz-long fuzz-keep coverage mutate-c mutate-js

# The generated files of web/gen/: the Wasm cores and their ids, and the stylesheets as strings.
GEN      := web/gen/wasm-source.js web/gen/wasm-exports.js web/gen/explorer-css.js web/gen/labs-css.js web/gen/train-css.js web/gen/induction-css.js web/gen/geometry-css.js
all: setup $(GEN) ## build the Wasm core (SIMD and scalar) and its JS embedding

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/' | expand -t 12

setup: ## check for (as root: install) emcc and node
	@tools/setup.sh build

setup-test: ## check for (as root: install) clang, the three browsers (chromium, firefox-esr, webkit2gtk-driver + xvfb) and node_modules too
	@tools/setup.sh test

build/simd/attention.o: c/attention.c c/attention.h Makefile
	@mkdir -p build/simd
	$(EMCC) -O3 -msimd128 -Ic -c $< -o $@

# The forward core (the explorer's, in its first load) takes the same code built for size: 40 %
# smaller, and the explorer's heads are small (make bench times both: the full core is -O3).
build/simd/attention_forward.o: c/attention.c c/attention.h Makefile
	@mkdir -p build/simd
	$(EMCC) -Os -msimd128 -Ic -c $< -o $@

build/scalar/attention_forward.o: c/attention.c c/attention.h Makefile
	@mkdir -p build/scalar
	$(EMCC) -Os -Ic -c $< -o $@

# The backward pass is where training spends its time (c/induction.c's steps): built for speed
# too. c/induction.c itself only glues the products together and stays built for size.
build/simd/attention_backward.o: build/simd/%.o: c/%.c $(CORE) $(TRAIN) $(EXPORTS) Makefile
	@mkdir -p build/simd
	$(EMCC) -O3 -msimd128 -Ic -c $< -o $@

build/scalar/attention_backward.o: build/scalar/%.o: c/%.c $(CORE) $(TRAIN) $(EXPORTS) Makefile
	@mkdir -p build/scalar
	$(EMCC) -O2 -Ic -c $< -o $@

build/simd/%.o: c/%.c $(CORE) $(TRAIN) $(EXPORTS) Makefile
	@mkdir -p build/simd
	$(EMCC) -Os -msimd128 -Ic -c $< -o $@

build/scalar/attention.o: c/attention.c c/attention.h Makefile
	@mkdir -p build/scalar
	$(EMCC) -O2 -Ic -c $< -o $@

build/scalar/%.o: c/%.c $(CORE) $(TRAIN) $(EXPORTS) Makefile
	@mkdir -p build/scalar
	$(EMCC) -Os -Ic -c $< -o $@

build/simd/wasm_exports_forward.o: c/wasm_exports.c $(CORE) $(EXPORTS) Makefile
	@mkdir -p build/simd
	$(EMCC) -Os -msimd128 -DAE_FORWARD_ONLY -Ic -c $< -o $@

build/scalar/wasm_exports_forward.o: c/wasm_exports.c $(CORE) $(EXPORTS) Makefile
	@mkdir -p build/scalar
	$(EMCC) -Os -DAE_FORWARD_ONLY -Ic -c $< -o $@

build/simd/wasm_exports_trainer.o: c/wasm_exports.c $(CORE) $(TRAIN) $(EXPORTS) Makefile
	@mkdir -p build/simd
	$(EMCC) -Os -msimd128 -DAE_NO_INDUCTION -Ic -c $< -o $@

build/scalar/wasm_exports_trainer.o: c/wasm_exports.c $(CORE) $(TRAIN) $(EXPORTS) Makefile
	@mkdir -p build/scalar
	$(EMCC) -Os -DAE_NO_INDUCTION -Ic -c $< -o $@

# emcc runs Binaryen's wasm-opt once at link; a second run to a fixed point (--converge, at -O3 so
# the forward pass keeps its speed) takes about 1% off each build. The feature flags keep the scalar build free of SIMD and of post-MVP opcodes.
LINK_SIMD   = $(EMCC) -O3 -msimd128 $(WASM_LINK) $^ -o $(basename $@).linked.wasm && \
              $(WASM_OPT) -O3 --converge --mvp-features --enable-simd $(basename $@).linked.wasm -o $@
LINK_SCALAR = $(EMCC) -O2 $(WASM_LINK) $^ -o $(basename $@).linked.wasm && \
              $(WASM_OPT) -O3 --converge --mvp-features $(basename $@).linked.wasm -o $@

# The three cores (full, forward, trainer), each as a SIMD and a scalar build.
build/attention-simd.wasm:           $(WASM_SRC:c/%.c=build/simd/%.o)   ; $(LINK_SIMD)
build/attention-scalar.wasm:         $(WASM_SRC:c/%.c=build/scalar/%.o) ; $(LINK_SCALAR)
build/attention-forward-simd.wasm:   $(WASM_FORWARD_OBJ:%=build/simd/%)   ; $(LINK_SIMD)
build/attention-forward-scalar.wasm: $(WASM_FORWARD_OBJ:%=build/scalar/%) ; $(LINK_SCALAR)
build/attention-trainer-simd.wasm:   $(WASM_TRAINER_OBJ:%=build/simd/%)   ; $(LINK_SIMD)
build/attention-trainer-scalar.wasm: $(WASM_TRAINER_OBJ:%=build/scalar/%) ; $(LINK_SCALAR)

WASM_BUILDS := build/attention-simd.wasm build/attention-scalar.wasm build/attention-trainer-simd.wasm \
               build/attention-trainer-scalar.wasm build/attention-forward-simd.wasm build/attention-forward-scalar.wasm
web/gen/wasm-source.js: $(WASM_BUILDS) tools/embed-wasm.mjs
	node tools/embed-wasm.mjs $(WASM_BUILDS) web/gen

# The JS side of the export table: the id lists and numbers web/core/ reads, and the raw exports' types.
web/gen/wasm-exports.js: c/wasm_exports.def tools/wasm-exports.mjs
	node tools/wasm-exports.mjs c/wasm_exports.def web/gen

web/gen/explorer-css.js: web/explorer/style.css tools/embed-css.mjs
	node tools/embed-css.mjs web/explorer/style.css $@

web/gen/labs-css.js: web/labs/labs.css tools/embed-css.mjs
	node tools/embed-css.mjs web/labs/labs.css $@ LABS_CSS

web/gen/train-css.js: web/train/train.css tools/embed-css.mjs
	node tools/embed-css.mjs web/train/train.css $@ TRAIN_CSS

web/gen/induction-css.js: web/induction/induction.css tools/embed-css.mjs
	node tools/embed-css.mjs web/induction/induction.css $@ INDUCTION_CSS

web/gen/geometry-css.js: web/explorer/geometry.css tools/embed-css.mjs
	node tools/embed-css.mjs web/explorer/geometry.css $@ GEOMETRY_CSS

dist: all ## write dist/ with esbuild: a minified attention-explorer.js (the explorer, Wasm inside), the parts it loads for the other modes, index.html and lab.html that open from file://
	@tools/setup.sh dist
	node tools/build-dist.mjs

# The site's sources: every file of web/ (but the generated ones, made by `all`) and its build script.
SITE_SRC := $(shell find web -type f -not -path 'web/gen/*') tools/build-site.mjs tools/build-dist.mjs
site/index.html: $(SITE_SRC) $(GEN)
	node tools/build-site.mjs

site: setup $(GEN) site/index.html ## write site/, the production build that make run serves and any static host can (docs/deploy.md): every page, minified and split by esbuild with source maps, each text file also as .gz and .br

run: $(if $(DEV),all,site) ## serve the production build (site/, compressed) on http://127.0.0.1:$(PORT)/, building it if needed (PORT= to change; DEV=1 serves web/ as make dev)
	node tools/serve.mjs --root=$(if $(DEV),web,site) $(PORT)

dev: all ## serve the readable modules of web/ as they are (edit and reload) on http://127.0.0.1:$(PORT)/
	node tools/serve.mjs --root=web $(PORT)

screenshot: all ## docs/explorer.png, the README's picture, taken from the real explorer page in Chromium (tools/screenshot.mjs)
	node tools/screenshot.mjs docs/explorer.png

# The C tests, the fuzz runs and the type checks are independent single-threaded programs: they
# run TEST_JOBS at a time (one per core), each one's output kept together (-Otarget); then the
# Node and browser files, which run their own files in parallel.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: setup-test all dist ## build and run every test
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) -Otarget test-c fuzz-runs test-types
	@$(MAKE) --no-print-directory test-node

test-hosts: all dist ## build docs/embedding.md's MkDocs, Material, Sphinx, Hugo and nbconvert recipes with Debian's tools, and its React 18/19, VitePress, Astro and Eleventy ones from npm (pinned in tests/hosts/npm/), and open each in Chromium
	@tools/setup.sh hosts
	node --test tests/hosts/*.test.mjs

test-types: setup-test all ## tsc --noEmit, strict: the package's .d.ts, tests/types/consumer.ts (bundler and node16 resolution), all of web/ (checkJs)
	node_modules/.bin/tsc --noEmit -p tsconfig.json
	node_modules/.bin/tsc --noEmit -p tests/types/tsconfig.node16.json

# Each source is compiled once under the sanitizers into build/san/ and linked into the tests
# that use it, so a change to one file recompiles that file only (make mutate-c relies on this).
SAN_HEADERS := c/attention.h c/learn.h c/train.h c/induction.h
build/san/%.o: c/%.c $(SAN_HEADERS) Makefile
	@mkdir -p build/san
	$(CLANG) $(SAN_FLAGS) -c $< -o $@

build/san/%.o: tests/c/%.c tests/c/check.h tests/c/reference_head.h tests/c/fused_tolerance.h tests/c/wasm_shim.h $(SAN_HEADERS) $(EXPORTS) Makefile
	@mkdir -p build/san
	$(CLANG) $(SAN_FLAGS) -c $< -o $@

build/test_attention: build/san/attention.o build/san/test_attention.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_backward: build/san/attention.o build/san/attention_backward.o build/san/test_backward.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_train: build/san/attention.o build/san/attention_backward.o build/san/learn.o build/san/train.o build/san/test_train.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_induction: build/san/attention.o build/san/attention_backward.o build/san/learn.o build/san/induction.o build/san/test_induction.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_fused: build/san/attention.o build/san/test_fused.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

build/test_labs: build/san/attention.o build/san/test_labs.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

# c/wasm_exports.c natively, with the test-only shim for WebAssembly's memory (as the fuzzer has it).
# -Wmissing-prototypes: a function there that is neither static nor a row of c/wasm_exports.def
# (which c/wasm_exports.h declares) is an error, so none is left unexported by mistake.
build/san/wasm_exports.o: c/wasm_exports.c tests/c/wasm_shim.h $(SAN_HEADERS) $(EXPORTS) Makefile
	@mkdir -p build/san
	$(CLANG) $(SAN_FLAGS) -Wmissing-prototypes $(FUZZ_FLAGS_exports) -c $< -o $@

build/test_exports: build/san/attention.o build/san/attention_backward.o build/san/learn.o build/san/train.o \
                    build/san/induction.o build/san/wasm_exports.o build/san/wasm_shim.o build/san/test_exports.o
	$(CLANG) $(SAN_FLAGS) $^ -lm -o $@

test-c: setup-test build/test_attention build/test_fused build/test_backward build/test_labs build/test_train build/test_induction build/test_exports ## native C tests under AddressSanitizer and UBSan
	build/test_attention
	build/test_fused
	build/test_backward
	build/test_labs
	build/test_train
	build/test_induction
	build/test_exports

# The libFuzzer targets (tests/c/fuzz_<name>.c), the C files each one reaches, and how many
# seeded runs of each make test does (about 10-20 s each on an idle 2-core machine; FUZZ_SECONDS
# caps a slow one). Together they call every function c/ exports (tests/c/*.c say what each checks).
FUZZ_TARGETS := attention softmax backward train induction exports
FUZZ_SRC_attention := c/attention.c
FUZZ_SRC_softmax   := c/attention.c
FUZZ_SRC_backward  := c/attention.c c/attention_backward.c
FUZZ_SRC_train     := c/attention.c c/attention_backward.c c/learn.c c/train.c
FUZZ_SRC_induction := c/attention.c c/attention_backward.c c/learn.c c/induction.c
FUZZ_SRC_exports   := $(WASM_SRC) tests/c/wasm_shim.c
FUZZ_RUNS_attention := 60000
FUZZ_RUNS_softmax   := 60000
FUZZ_RUNS_backward  := 15000
FUZZ_RUNS_train     := 2000
FUZZ_RUNS_induction := 8000
FUZZ_RUNS_exports   := 15000
# c/wasm_exports.c uses WebAssembly's __heap_base and memory builtins: natively, a test-only
# shim stands in for them (tests/c/wasm_shim.h); the product code is built as it is.
FUZZ_FLAGS_exports := -include tests/c/wasm_shim.h -Wno-unknown-attributes -Wno-ignored-attributes
FUZZ_DEPS := tests/c/fuzz.h tests/c/reference_head.h tests/c/fused_tolerance.h tests/c/wasm_shim.h $(EXPORTS) $(CORE) $(TRAIN) Makefile

.SECONDEXPANSION:
build/fuzz_%: tests/c/fuzz_%.c $$(FUZZ_SRC_$$*) $(FUZZ_DEPS)
	@mkdir -p build
	$(CLANG) -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ic -Itests/c \
	  $(FUZZ_FLAGS_$*) $(FUZZ_SRC_$*) $< -lm -o $@

test-fuzz: setup-test ## a bounded, seeded libFuzzer run of every C entry point (FUZZ_SECONDS caps each target), TEST_JOBS at a time
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) -Otarget fuzz-runs

# Each target's run on its own (make -j runs them side by side): it starts from the committed
# seeds and a fresh corpus of its own (build/fuzz-corpus/NAME), so runs never share files.
fuzz-runs: $(FUZZ_TARGETS:%=fuzz-run-%)
fuzz-run-%: build/fuzz_%
	@rm -rf build/fuzz-corpus/$*
	@tools/fuzz.sh test $* $(FUZZ_RUNS_$*) $(FUZZ_SECONDS)

fuzz-long: setup-test all $(FUZZ_TARGETS:%=build/fuzz_%) ## a long fuzz run (FUZZ_LONG_SECONDS per C target, niced) and PROPERTY_RUNS runs of each JS property
	@$(foreach t,$(FUZZ_TARGETS),tools/fuzz.sh long $(t) $(FUZZ_LONG_SECONDS) &&) true
	PROPERTY_RUNS=$(PROPERTY_RUNS) nice node --test tests/core/property.test.mjs

fuzz-keep: $(FUZZ_TARGETS:%=build/fuzz_%) ## keep what the last fuzz runs found: the smallest input set reaching every feature, to tests/c/corpus/*.b64
	@$(foreach t,$(FUZZ_TARGETS),tools/fuzz.sh keep $(t) &&) true

# make coverage: clang's source-based coverage of c/, reached by the C tests and by every input
# of the fuzz corpora (tests/c/corpus/ and, after a fuzz run, build/fuzz-corpus/), replayed once.
COV_FLAGS := -g -O0 -fprofile-instr-generate -fcoverage-mapping -Ic -Itests/c
C_TESTS := attention fused backward labs train induction
COV_TEST_SRC_attention := c/attention.c
COV_TEST_SRC_fused     := c/attention.c
COV_TEST_SRC_backward  := c/attention.c c/attention_backward.c
COV_TEST_SRC_labs      := c/attention.c
COV_TEST_SRC_train     := c/attention.c c/attention_backward.c c/learn.c c/train.c
COV_TEST_SRC_induction := c/attention.c c/attention_backward.c c/learn.c c/induction.c

build/cov/test_%: tests/c/test_%.c $$(COV_TEST_SRC_$$*) tests/c/check.h $(FUZZ_DEPS)
	@mkdir -p build/cov
	$(CLANG) $(COV_FLAGS) $(COV_TEST_SRC_$*) $< -lm -o $@

build/cov/fuzz_%: tests/c/fuzz_%.c $$(FUZZ_SRC_$$*) $(FUZZ_DEPS)
	@mkdir -p build/cov
	$(CLANG) $(COV_FLAGS) -fsanitize=fuzzer $(FUZZ_FLAGS_$*) $(FUZZ_SRC_$*) $< -lm -o $@

coverage: setup-test $(C_TESTS:%=build/cov/test_%) $(FUZZ_TARGETS:%=build/cov/fuzz_%) ## line and branch coverage of c/ by the C tests and the fuzz corpora (targets: attention.c >= 95% of lines, c/ >= 90%)
	@tools/coverage.sh "$(C_TESTS)" "$(FUZZ_TARGETS)" "$(WASM_SRC)"

test-node: setup-test all dist ## Node tests: core, ONNX vectors, bad input, page modules, browser
	node --test --test-concurrency=$(UNIT_CONCURRENCY) $(NODE_UNIT_TESTS)
	node --test --test-concurrency=$(BROWSER_CONCURRENCY) $(NODE_BROWSER_TESTS)

test-unit: setup-test all dist ## the Node tests that start no browser (everything outside tests/browser/ and tests/hosts/)
	node --test --test-concurrency=$(UNIT_CONCURRENCY) $(NODE_UNIT_TESTS)

test-quick: test-c test-unit ## the C tests under the sanitizers and the Node tests that start no browser (under a minute on 2 cores; see UNIT_CONCURRENCY)

build/bench_native: $(CORE) bench/bench_native.c
	@mkdir -p build
	cc -std=c99 -O2 -Ic c/attention.c bench/bench_native.c -lm -o $@

bench: setup-test all site build/bench_native ## first numbers of every page on a slow link (production build and web/), time forward() (Wasm SIMD, scalar, native -O2, plain JS), training steps/s and the page's frames, the induction page, the explorer's refresh while a head trains, the training page's busy share and click-to-explanation time while it trains
	node bench/first-numbers.mjs
	node bench/bench.mjs
	node bench/bench-train.mjs
	node bench/bench-induction.mjs
	node bench/bench-refresh.mjs
	node bench/bench-train-input.mjs
	node tests/browser/frame-bench.mjs

mutate-c: setup-test ## mutation testing of c/ (seeded, stratified; tens of minutes): killed, survived, each survivor (MUTATE_ARGS=--count=...)
	nice node tools/mutate-c.mjs $(MUTATE_ARGS)

mutate-js: setup-test all dist ## mutation testing of the pure JS modules with StrykerJS (tens of minutes): per file, each survivor
	nice -n 10 npx stryker run stryker.config.mjs $(MUTATE_ARGS)
	node tools/mutate-js-report.mjs

clean: ## remove build output
	rm -rf build web/gen dist site tests/out
