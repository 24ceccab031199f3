// The doctest runner for the core suite (native, and compiled to wasm and run under Node).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
