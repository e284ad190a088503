# Ferry: `make run` opens Ferry, `make test` passes every test (the installation test:
# `make test-install`). Both install what is missing.
# `make install [PREFIX=/usr/local] [DESTDIR=]` installs the release binary (stripped), its
# manual pages, shell completions and the guide (share/doc/ferry/USAGE.md); `make uninstall` removes those files again.
SWIFT ?= swift
DEBS := curl libcurl4-openssl-dev libssl-dev libncursesw5-dev libsqlite3-dev zlib1g-dev libxml2 nginx tmux iproute2 tinyproxy microsocks \
	man-db groff-base python3-cryptography aria2
BENCH_DEBS := curl wget wget2 axel time
# Python packages the tests drive Ferry with (aria2p: a real aria2 JSON-RPC client; aria2c, in
# DEBS, answers the same calls for the comparison test; tuspyserver on uvicorn: a real tus 1.0
# server; tuspy, the reference tus client, uploads beside Ferry to it).
PIP_DEPS := aria2p tuspyserver uvicorn tuspy
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

PREFIX ?= /usr/local
DESTDIR ?=
# Linked by lld with packed relative relocations (DT_RELR: the relocation table shrinks from
# about 3 MiB to a few KiB) and without exporting every symbol (nothing dlopens into ferry):
# less for every process to map, relocate and keep resident.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --no-export-dynamic
# The files `make install` copies, laid out as under PREFIX; made from the release build.
STAGE := .build/install
STAMP := .build/install.stamp
# The release binary's debug information, kept out of the installed (stripped) binary; gdb
# finds it through the binary's .gnu_debuglink.
DEBUG_FILE := .build/ferry.debug
SOURCES := Package.swift $(shell find Sources -type f)
# The manual pages' date: the last commit's, so that the same sources make the same pages.
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null)

.PHONY: deps bench-deps build release stage install uninstall run test test-install bench fuzz sanitize clean

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@python3 -c 'import aria2p, tuspyserver, uvicorn, tusclient' >/dev/null 2>&1 || python3 -m pip install -q $(PIP_DEPS) || \
	  python3 -m pip install -q --break-system-packages $(PIP_DEPS) || \
	  echo "could not install $(PIP_DEPS) with pip: the tests that use it are skipped"

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
	$(SWIFT) build $(RELEASE_FLAGS)

# The release binary (Swift runtime linked statically), the manual pages that
# swift-argument-parser's generate-manual tool writes from it (ferry.1, ferry-get.1, ...;
# the tool names them ferry.get.1, and leaves blank lines between paragraphs, which mdoc
# warns about: they become .Pp) and its bash, zsh and fish completion scripts. The binary is
# stripped (its debug information kept in $(DEBUG_FILE)); internal commands (named with a
# leading '_', such as _netmon) get no page and no SEE ALSO entry.
# Made again only when a source changed, so `sudo make install` after `make` builds nothing.
stage: $(STAMP)

$(STAMP): $(SOURCES) docs/USAGE.md Makefile
	$(MAKE) release
	$(SWIFT) build $(RELEASE_FLAGS) --product generate-manual
	rm -rf $(STAGE) $(STAGE).man
	mkdir -p $(STAGE)/bin $(STAGE)/share/man/man1 $(STAGE)/share/doc/ferry $(STAGE)/share/bash-completion/completions \
	  $(STAGE)/share/zsh/site-functions $(STAGE)/share/fish/vendor_completions.d $(STAGE).man
	bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	cp "$$bin/ferry" $(STAGE)/bin/ferry && \
	objcopy --only-keep-debug $(STAGE)/bin/ferry $(DEBUG_FILE) && \
	strip --strip-all $(STAGE)/bin/ferry && \
	objcopy --add-gnu-debuglink=$(DEBUG_FILE) $(STAGE)/bin/ferry && \
	"$$bin/generate-manual" $(STAGE)/bin/ferry --multi-page $(if $(MAN_DATE),--date $(MAN_DATE)) \
	  --output-directory $(STAGE).man
	for page in $(STAGE).man/*.1; do \
	  name="$$(basename "$$page" .1 | tr . -)"; \
	  sed -E -e '/^\.(Dt|Xr) /s/\./-/2g' -e 's/^$$/.Pp/' -e '/^\.Xr ferry-_/d' "$$page" > $(STAGE)/share/man/man1/"$$name".1 || exit 1; \
	done
	rm -rf $(STAGE).man $(STAGE)/share/man/man1/ferry-_*.1
	install -D -m 0644 docs/USAGE.md $(STAGE)/share/doc/ferry/USAGE.md
	$(STAGE)/bin/ferry --generate-completion-script bash > $(STAGE)/share/bash-completion/completions/ferry
	$(STAGE)/bin/ferry --generate-completion-script zsh > $(STAGE)/share/zsh/site-functions/_ferry
	$(STAGE)/bin/ferry --generate-completion-script fish > $(STAGE)/share/fish/vendor_completions.d/ferry.fish
	touch $@

install: $(STAMP)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(PREFIX)/share/doc/ferry
	install -m 0755 $(STAGE)/bin/ferry $(DESTDIR)$(PREFIX)/bin/ferry
	install -m 0644 $(STAGE)/share/man/man1/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 $(STAGE)/share/bash-completion/completions/ferry $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ferry
	install -m 0644 $(STAGE)/share/zsh/site-functions/_ferry $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ferry
	install -m 0644 $(STAGE)/share/fish/vendor_completions.d/ferry.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/ferry.fish
	install -m 0644 $(STAGE)/share/doc/ferry/USAGE.md $(DESTDIR)$(PREFIX)/share/doc/ferry/USAGE.md

# Removes the files the stage holds (the ones `make install` copied), no directory; the
# stage is made first only when there is none.
uninstall: | $(STAMP)
	find $(STAGE) -type f | while read -r file; do rm -f "$(DESTDIR)$(PREFIX)/$${file#$(STAGE)/}"; done

run: build
	./.build/debug/ferry $(ARGS)

# Every test but the installation test, on the debug build only: no release stage is made.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip InstallTests

# The installation test: the stage (the release build, its manual pages and completions)
# comes first, since the test installs it. `.ci/run` runs it after `make test`.
test-install: deps $(STAMP)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter InstallTests

bench: bench-deps release
	bench/download
	bench/segmented
	bench/upload
	bench/upload-resumable
	bench/sources
	bench/tui
	bench/queue
	bench/rpc
	bench/bandwidth

# Fuzzing (libFuzzer): the package in Fuzz/ is built with the fuzzer and AddressSanitizer,
# then every target runs FUZZ_SECONDS seconds from its seed corpus, one after another. Seeds
# are copied to a scratch corpus under Fuzz/.build so runs never write into the repository;
# a crash, an invariant broken, a hang (one input over FUZZ_TIMEOUT seconds, generous so that a
# busy machine is not taken for one) or a leak fails.
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 30
FUZZ_TARGETS := FuzzContentDisposition FuzzContentRange FuzzResponseHead FuzzBatchInput \
	FuzzFormFieldSpec FuzzQueryString FuzzJSON FuzzMultipartBody FuzzJournal FuzzMetalink
FUZZ_BUILD := Fuzz/.build

fuzz: deps
	cd Fuzz && $(SWIFT) build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing --scratch-path .build
	@set -e; for t in $(FUZZ_TARGETS); do \
	  work=$(FUZZ_BUILD)/corpus/$$t; artifacts=$(FUZZ_BUILD)/artifacts/$$t; \
	  mkdir -p $$work $$artifacts; cp Fuzz/corpus/$$t/* $$work/; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0 \
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
