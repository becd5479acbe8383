// SPDX-License-Identifier: GPL-2.0
/*
 * miireg IFACE REG [VALUE]: read (or write) a PHY register through the MII ioctls, as
 * mii-tool does. Prints "phy=<addr> reg=<reg> val=0x<hex>". Built static for the test guest.
 */
#include <linux/mii.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct ifreq ifr;
	struct mii_ioctl_data *mii = (struct mii_ioctl_data *)&ifr.ifr_data;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: %s IFACE REG [VALUE]\n", argv[0]);
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, argv[1], IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGMIIPHY, &ifr) < 0) {
		perror("SIOCGMIIPHY");
		return 1;
	}
	mii->reg_num = strtoul(argv[2], NULL, 0);
	if (argc > 3) {
		mii->val_in = strtoul(argv[3], NULL, 0);
		if (ioctl(fd, SIOCSMIIREG, &ifr) < 0) {
			perror("SIOCSMIIREG");
			return 1;
		}
	}
	if (ioctl(fd, SIOCGMIIREG, &ifr) < 0) {
		perror("SIOCGMIIREG");
		return 1;
	}
	printf("phy=%u reg=%u val=0x%04x\n", mii->phy_id, mii->reg_num, mii->val_out);
	close(fd);
	return 0;
}
