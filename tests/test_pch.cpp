// The source of plexus_test_pch (tests/CMakeLists.txt): the target exists to build Catch2's
// precompiled header that every test file reuses; this file only gives it a compile.
