#!/usr/bin/env bash
# Prints one closing line for the XCTest logs given: "tests: P passed, F failed, S skipped".
# `make test` runs the suite in two processes side by side; this counts their test cases together.
set -u
passed=0 failed=0 skipped=0
for log in "$@"; do
    [ -f "$log" ] || continue
    passed=$((passed + $(grep -cE "^Test Case '.*' passed \(" "$log")))
    failed=$((failed + $(grep -cE "^Test Case '.*' failed \(" "$log")))
    skipped=$((skipped + $(grep -cE "^Test Case '.*' skipped \(" "$log")))
done
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
