"""Code shared by the tests, the benchmarks and the scripts: harnesses, fakes, builders and
data sets (issue #48). Nothing here is a test; everything here is imported as ``tests.support.<module>``."""
