#!/bin/sh
# The KUnit doctests ran at boot, before init; their KTAP output is in the console log, which
# the host parses. Here only check that the kernel log shows them finished.
. /tests/lib.sh
if dmesg | grep -q 'rust_doctests_kernel'; then pass kunit-ran; else fail kunit-ran "no rust_doctests_kernel in dmesg"; fi
