// A library that the needs_library test plugin links but cannot find at run time.
extern "C" __attribute__((visibility("default"))) int plexus_test_needed_function() { return 42; }
