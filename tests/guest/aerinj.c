// SPDX-License-Identifier: GPL-2.0
/*
 * aerinj BUS:DEV.FN UNCOR_STATUS COR_STATUS: one error through the kernel's AER error
 * injector (CONFIG_PCIEAER_INJECT, /dev/aer_inject), as struct aer_error_inj in
 * drivers/pci/pcie/aer_inject.c lays it out; domain 0, no header log.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct aer_error_inj {
	uint8_t bus, dev, fn;
	uint32_t uncor_status, cor_status;
	uint32_t header_log[4];
	uint32_t domain;
};

int main(int argc, char **argv)
{
	struct aer_error_inj e = { 0 };
	unsigned int bus, dev, fn;
	int fd;

	if (argc != 4 || sscanf(argv[1], "%x:%x.%x", &bus, &dev, &fn) != 3) {
		fprintf(stderr, "usage: aerinj BUS:DEV.FN UNCOR_STATUS COR_STATUS\n");
		return 2;
	}
	e.bus = bus;
	e.dev = dev;
	e.fn = fn;
	e.uncor_status = strtoul(argv[2], NULL, 0);
	e.cor_status = strtoul(argv[3], NULL, 0);
	fd = open("/dev/aer_inject", O_WRONLY);
	if (fd < 0 || write(fd, &e, sizeof(e)) != sizeof(e)) {
		perror("aerinj");
		return 1;
	}
	close(fd);
	return 0;
}
