# dp2 — the two commands of the Quick start, and the helpers behind them.
#
#   make demo   install what is missing, configure, build, run the main example
#   make test   install what is missing, build, run every test (release, then ASan+UBSan)
#
# Other targets: make deps | build | asan | tsan | notbb | aarch64 | bench [BENCH_ARGS=...] | fuzz | fuzz-capture | fuzz-raster [FUZZ_SECONDS=60] | clean

SHELL := /bin/bash
JOBS ?= 2
FUZZ_SECONDS ?= 60

# Debian 12 packages dp2 builds and tests with.
DEB_PACKAGES := cmake g++ make pkg-config python3 libosmesa6-dev libglm-dev libtbb-dev libstb-dev doctest-dev \
                libcli11-dev clang-14 libclang-rt-14-dev mingw-w64-common mingw-w64-x86-64-dev
# And for `make aarch64`: the cross compiler and QEMU's user mode.
DEB_PACKAGES_AARCH64 := g++-aarch64-linux-gnu qemu-user

.PHONY: all deps build asan tsan notbb aarch64 demo test bench fuzz fuzz-capture fuzz-raster clean

all: build

# Installs the missing packages of a list when run as root; otherwise prints the one line to run.
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "dp2: installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "dp2: missing Debian packages. Run:"; \
	  echo "  sudo apt-get install -y$$missing"; \
	  exit 1; \
	fi
endef

deps:
	$(call install_missing,$(DEB_PACKAGES))

build: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)

# The concurrency tests (names starting with "concurrency") under ThreadSanitizer, once
# with TBB and once rendering through dp2's own thread pool (DP2_WITH_TBB=OFF).
tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS) --target dp2_tests
	ctest --preset tsan
	cmake --preset tsan-notbb
	cmake --build --preset tsan-notbb -j $(JOBS) --target dp2_tests
	ctest --preset tsan-notbb

# The AArch64 cross build (the NEON kernels; without TBB, which Debian has for the host
# only) and every test under QEMU's user mode. Not in CI: about 10 minutes.
aarch64: deps
	$(call install_missing,$(DEB_PACKAGES_AARCH64))
	cmake --preset aarch64
	cmake --build --preset aarch64 -j $(JOBS)
	ctest --preset aarch64 -j $(JOBS)

# The build without TBB (DP2_WITH_TBB=OFF: dp2's own thread pool), built and tested whole.
notbb: deps
	cmake --preset notbb
	cmake --build --preset notbb -j $(JOBS)
	ctest --preset notbb -j $(JOBS)

demo: build
	./build/release/examples/dp2demo

test: build asan
	ctest --preset release -j $(JOBS)
	ctest --preset asan -j $(JOBS)
	./build/release/examples/dp2demo build/demo-check > /dev/null
	./build/release/examples/dp2bench --workload demo --frames 1 > /dev/null
	./build/release/examples/dp2bench --workload W1 --target 16 --frames 1 --no-llvmpipe > /dev/null

# The speed workloads of dp2bench (W1–W5 and the demo) against llvmpipe, on all of them.
bench: build
	./build/release/examples/dp2bench $(BENCH_ARGS)

# libFuzzer over DrawPrimitives2 under ASan+UBSan, seeded by the stream writer's corpus.
fuzz: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS)
	rm -rf build/fuzz/corpus-run && mkdir -p build/fuzz/corpus-run
	./build/fuzz/tests/fuzz/dp2_seed_corpus build/fuzz/corpus-seed
	./build/fuzz/tests/fuzz/dp2_fuzz_dp2 -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
	  -print_final_stats=1 build/fuzz/corpus-run build/fuzz/corpus-seed

# libFuzzer over the capture reader and replay, seeded with a capture the Python writer makes.
fuzz-capture: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS) --target dp2_fuzz_capture
	rm -rf build/fuzz/capture-run build/fuzz/capture-seed && mkdir -p build/fuzz/capture-run build/fuzz/capture-seed
	python3 tests/capture/write_capture.py build/fuzz/capture-seed/triangle.dp2c
	./build/fuzz/tests/fuzz/dp2_fuzz_capture -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
	  build/fuzz/capture-run build/fuzz/capture-seed

# libFuzzer over the rasterizer's C++ API (dp2raster/renderer.h), seeded with the scenes
# in tests/fuzz/raster-seeds/ (tests/fuzz/write_raster_seeds.py writes them).
fuzz-raster: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS) --target dp2_fuzz_raster
	rm -rf build/fuzz/raster-run && mkdir -p build/fuzz/raster-run
	./build/fuzz/tests/fuzz/dp2_fuzz_raster -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
	  build/fuzz/raster-run tests/fuzz/raster-seeds

clean:
	rm -rf build
