# Thin wrapper around CMake. `make test` runs the suite twice: a normal build and ASan+UBSan.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60

.PHONY: all deps test test-normal test-asan demo bench fuzz format clean

all: $(BUILD)/rampart

deps:
	@scripts/deps.sh

$(BUILD)/Makefile:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

$(BUILD)/rampart: $(BUILD)/Makefile FORCE
	cmake --build $(BUILD) -j $(JOBS)

$(ASAN_BUILD)/Makefile:
	CC=$${CC:-clang} cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DRAMPART_SANITIZE=ON

test: deps
	$(MAKE) test-normal
	$(MAKE) test-asan

test-normal: $(BUILD)/rampart
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: $(ASAN_BUILD)/Makefile
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS)

demo: deps $(BUILD)/rampart
	@scripts/demo.sh $(BUILD)/rampart

bench: $(BUILD)/rampart
	@scripts/bench.sh $(BUILD)

fuzz: deps
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRAMPART_FUZZ=ON
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

FORCE:
