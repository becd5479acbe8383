// SPDX-License-Identifier: GPL-2.0
/* mark N: executes the benchmark's marker N (mark.h) and exits. */
#include <stdio.h>
#include <stdlib.h>

#include "mark.h"

int main(int argc, char **argv)
{
	if (argc != 2 || bench_mark(atoi(argv[1]))) {
		fprintf(stderr, "usage: mark 0-9\n");
		return 2;
	}
	return 0;
}
