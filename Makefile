# Ferry: `make run` opens Ferry, `make test` passes every test. Both install what is missing.
SWIFT ?= swift
DEBS := curl libcurl4-openssl-dev libncursesw5-dev libsqlite3-dev zlib1g-dev libxml2 nginx tmux
BENCH_DEBS := curl wget aria2 time
# Python packages the tests drive Ferry with (aria2p: a real aria2 JSON-RPC client).
PIP_DEPS := aria2p
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: deps bench-deps build release run test bench clean

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@python3 -c 'import aria2p' >/dev/null 2>&1 || python3 -m pip install -q $(PIP_DEPS) || \
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

clean:
	rm -rf .build
