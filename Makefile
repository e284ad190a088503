# Ferry: `make run` opens Ferry, `make test` passes every test. Both install what is missing.
SWIFT ?= swift
DEBS := curl libcurl4-openssl-dev libncursesw5-dev libsqlite3-dev zlib1g-dev libxml2 nginx tmux
BENCH_DEBS := curl wget aria2 time
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: deps bench-deps build release run test bench fuzz sanitize clean

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

bench-deps: deps
	@missing=""; for p in $(BENCH_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: build
	./.build/debug/ferry $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: bench-deps release
	bench/download
	bench/upload
	bench/tui
	bench/queue

# Fuzzing (libFuzzer): the package in Fuzz/ is built with the fuzzer and AddressSanitizer,
# then every target runs FUZZ_SECONDS seconds from its seed corpus, one after another. Seeds
# are copied to a scratch corpus under Fuzz/.build so runs never write into the repository;
# a crash, an invariant broken, a hang (one input over FUZZ_TIMEOUT seconds, generous so that a
# busy machine is not taken for one) or a leak fails.
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 30
FUZZ_TARGETS := FuzzContentDisposition FuzzContentRange FuzzResponseHead FuzzBatchInput \
	FuzzFormFieldSpec FuzzQueryString FuzzJSON FuzzMultipartBody FuzzJournal
FUZZ_BUILD := Fuzz/.build

fuzz: deps
	cd Fuzz && $(SWIFT) build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing --scratch-path .build
	@set -e; for t in $(FUZZ_TARGETS); do \
	  work=$(FUZZ_BUILD)/corpus/$$t; artifacts=$(FUZZ_BUILD)/artifacts/$$t; \
	  mkdir -p $$work $$artifacts; cp Fuzz/corpus/$$t/* $$work/; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/debug/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
	    -print_final_stats=1 -artifact_prefix=$$artifacts/ $$work \
	    || { echo "fuzz: $$t failed; the input is in $$artifacts"; exit 1; }; \
	done

# The main package's tests under AddressSanitizer, then ThreadSanitizer, each in a build
# directory of its own. Not part of `make test` (a sanitized build takes several minutes).
# Tests/Sanitizers lists the reports suppressed and why (each a blind spot of the sanitizer
# in the Swift runtime or Foundation, not a defect of Ferry's).
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0 \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp:print_suppressions=0 \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

clean:
	rm -rf .build .build-asan .build-tsan Fuzz/.build
