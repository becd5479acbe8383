#!/bin/sh
# The KUnit doctests run at boot, before init; the host parses their KTAP output from the console
# log. This suite only has to finish the boot cleanly.
. /tests/lib.sh
