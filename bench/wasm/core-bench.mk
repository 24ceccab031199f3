# core-bench.mk — the objects of bench/wasm/build-core-bench.sh (relaxed-SIMD core + core_bench.cpp),
# rebuilt only when a source or one of the headers it includes changed (-MMD). Run from the
# repository's root: make -f bench/wasm/core-bench.mk -j2 OBJ=build/bench/core-bench-obj
OBJ ?= build/bench/core-bench-obj
CXXFLAGS = -O3 -msimd128 -mrelaxed-simd -DATTN_RELAXED_SIMD=1 -ffp-contract=off -std=c++17 \
  -DATTN_VERSION='"0.1.0"' -Icore -isystem build/deps/xsimd/include -MMD -MP
SOURCES = $(wildcard core/*.cpp) bench/wasm/core_bench.cpp
OBJECTS = $(patsubst %.cpp,$(OBJ)/%.o,$(notdir $(SOURCES)))
vpath %.cpp core bench/wasm

all: $(OBJECTS)
$(OBJ)/%.o: %.cpp | $(OBJ)
	em++ $(CXXFLAGS) -c $< -o $@
$(OBJ):
	mkdir -p $@
-include $(OBJECTS:.o=.d)
