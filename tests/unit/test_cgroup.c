/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsers for control groups and pressure: membership, mounts, readable names, PSI lines. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "sample/cgroups/cgroup_parse.h"

static enum cgroup_version member(const char *text, char *out, size_t cap)
{
	return cgroup_parse_membership(text, strlen(text), out, cap);
}

START_TEST(membership)
{
	char p[256];
	ck_assert_int_eq(member("0::/system.slice/nginx.service\n", p, sizeof(p)), CGROUP_V2);
	ck_assert_str_eq(p, "/system.slice/nginx.service");
	/* a hybrid host: v1 hierarchies, then the unified one */
	ck_assert_int_eq(member("9:name=systemd:/user.slice\n4:memory:/x\n0::/user.slice/session-2.scope\n", p,
				sizeof(p)),
			 CGROUP_V2);
	ck_assert_str_eq(p, "/user.slice/session-2.scope");
	/* v1 only: the systemd hierarchy names the unit */
	ck_assert_int_eq(member("12:cpu,cpuacct:/foo\n1:name=systemd:/system.slice/cron.service\n", p, sizeof(p)),
			 CGROUP_V1_SYSTEMD);
	ck_assert_str_eq(p, "/system.slice/cron.service");
	/* a path may hold ':' */
	ck_assert_int_eq(member("0::/a:b/c\n", p, sizeof(p)), CGROUP_V2);
	ck_assert_str_eq(p, "/a:b/c");
	/* no newline at the end */
	ck_assert_int_eq(member("0::/", p, sizeof(p)), CGROUP_V2);
	ck_assert_str_eq(p, "/");
	ck_assert_int_eq(member("4:memory:/x\n", p, sizeof(p)), CGROUP_NONE);
	ck_assert_int_eq(member("", p, sizeof(p)), CGROUP_NONE);
	ck_assert_int_eq(member("garbage\n0:/x\n::\n", p, sizeof(p)), CGROUP_NONE);
	/* too long for the buffer: refused, not cut */
	ck_assert_int_eq(member("0::/system.slice/a-very-long-name.service\n", p, 8), CGROUP_NONE);
}
END_TEST

/* The kernel cuts a path at 4095 bytes, silently: a path that long may name
 * a group that does not exist, and is unknown; one byte shorter is whole. */
START_TEST(membership_cut_by_the_kernel)
{
	static char text[8192], p[8192];
	for (size_t len = CGROUP_PATH_CUT - 1; len <= CGROUP_PATH_CUT; len++) {
		strcpy(text, "9:name=systemd:/user.slice\n0::/");
		size_t at = strlen(text);
		memset(text + at, 'd', len - 1);
		strcpy(text + at + len - 1, "\n");
		enum cgroup_version v = member(text, p, sizeof(p));
		if (len < CGROUP_PATH_CUT) {
			ck_assert_int_eq(v, CGROUP_V2);
			ck_assert_uint_eq(strlen(p), len);
		} else {
			/* not the cut path, and not the other hierarchy's either */
			ck_assert_int_eq(v, CGROUP_NONE);
		}
	}
	/* the same for the v1 systemd hierarchy */
	strcpy(text, "1:name=systemd:/");
	memset(text + 16, 's', CGROUP_PATH_CUT - 1);
	strcpy(text + 16 + CGROUP_PATH_CUT - 1, "\n");
	ck_assert_int_eq(member(text, p, sizeof(p)), CGROUP_NONE);
}
END_TEST

static const char mountinfo[] =
	"22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime shared:9 - cgroup cgroup rw,xattr,name=systemd\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate\n";

START_TEST(mounts)
{
	char p[256];
	ck_assert(cgroup_parse_mount(mountinfo, strlen(mountinfo), CGROUP_V2, p, sizeof(p)));
	ck_assert_str_eq(p, "/sys/fs/cgroup/unified");
	ck_assert(cgroup_parse_mount(mountinfo, strlen(mountinfo), CGROUP_V1_SYSTEMD, p, sizeof(p)));
	ck_assert_str_eq(p, "/sys/fs/cgroup/systemd");
	const char pure[] = "25 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";
	ck_assert(cgroup_parse_mount(pure, strlen(pure), CGROUP_V2, p, sizeof(p)));
	ck_assert_str_eq(p, "/sys/fs/cgroup");
	ck_assert(!cgroup_parse_mount(pure, strlen(pure), CGROUP_V1_SYSTEMD, p, sizeof(p)));
	const char esc[] = "25 1 0:22 / /mnt/my\\040cgroups rw - cgroup2 none rw\n";
	ck_assert(cgroup_parse_mount(esc, strlen(esc), CGROUP_V2, p, sizeof(p)));
	ck_assert_str_eq(p, "/mnt/my cgroups");
	const char none[] = "22 1 8:1 / / rw - ext4 /dev/sda1 rw\nbroken line\n";
	ck_assert(!cgroup_parse_mount(none, strlen(none), CGROUP_V2, p, sizeof(p)));
}
END_TEST

static void name_is(const char *path, const char *want)
{
	char out[128];
	cgroup_unit_name(path, out, sizeof(out));
	ck_assert_msg(strcmp(out, want) == 0, "%s: %s, not %s", path, out, want);
}

#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

START_TEST(unit_names)
{
	name_is("/system.slice/nginx.service", "nginx.service");
	name_is("/user.slice/user-1000.slice/session-3.scope", "session-3.scope");
	name_is("/system.slice/postgresql@15-main.service/walwriter", "postgresql@15-main.service");
	name_is("/system.slice/docker-" HEX64 ".scope", "docker:0123456789ab");
	name_is("/machine.slice/libpod-" HEX64 ".scope/container", "podman:0123456789ab");
	name_is("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0c1e2f3a_4b5c_6d7e_8f90_a1b2c3d4e5f6.slice"
		"/cri-containerd-" HEX64 ".scope", "containerd:0123456789ab");
	name_is("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0c1e2f3a_4b5c_6d7e_8f90_a1b2c3d4e5f6.slice",
		"pod:0c1e2f3a-4b5c-6d7e-8f90-a1b2c3d4e5f6");
	name_is("/kubepods/burstable/pod0c1e2f3a-4b5c-6d7e-8f90-a1b2c3d4e5f6/" HEX64, "container:0123456789ab");
	name_is("/docker/" HEX64, "container:0123456789ab");
	name_is("/", "/");
	name_is("", "/");
	name_is("/process_api/c28e8a8b", "c28e8a8b");
	name_is("/a/b/", "b");
	/* names that only look close */
	name_is("/system.slice/.service", ".service");
	name_is("/docker-xyz.scope", "docker-xyz.scope");
	char tiny[4];
	cgroup_unit_name("/system.slice/nginx.service", tiny, sizeof(tiny));
	ck_assert_str_eq(tiny, "ngi");
}
END_TEST

START_TEST(pressure)
{
	struct psi p;
	const char cpu[] = "some avg10=38.28 avg60=54.29 avg300=71.63 total=2598052724\n"
			   "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
	ck_assert_int_eq(psi_parse(cpu, strlen(cpu), &p), 0);
	ck_assert(p.some.known && p.full.known);
	ck_assert_double_eq_tol(p.some.avg10, 38.28, 1e-9);
	ck_assert_double_eq_tol(p.some.avg300, 71.63, 1e-9);
	ck_assert_uint_eq(p.some.total_us, 2598052724ULL);
	ck_assert_uint_eq(p.full.total_us, 0);
	/* older kernels: no "full" line for cpu */
	const char old[] = "some avg10=1.50 avg60=0.00 avg300=0.00 total=12\n";
	ck_assert_int_eq(psi_parse(old, strlen(old), &p), 0);
	ck_assert(p.some.known && !p.full.known);
	/* PSI off: the file is there but reading fails, or it is empty */
	ck_assert_int_eq(psi_parse("", 0, &p), -1);
	const char junk[] = "some avg10=x total=\nfull\n";
	ck_assert_int_eq(psi_parse(junk, strlen(junk), &p), -1);
	ck_assert(!p.some.known && !p.full.known);
	const char neg[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=-5\n";
	ck_assert_int_eq(psi_parse(neg, strlen(neg), &p), -1);
	/* an average is digits and a point: no sign, exponent, nan or trailing junk */
	static const char *const bad[] = {"-1.00", "1e3", "nan", "1.", ".5", "1.5x", "",
					     /* a share of time: not past 100 % */
					     "100.01", "99999999999999999999999999999999999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char line[96];
		snprintf(line, sizeof(line), "some avg10=%s avg60=0.00 avg300=0.00 total=5\n", bad[i]);
		ck_assert_int_eq(psi_parse(line, strlen(line), &p), -1);
	}
	const char whole[] = "some avg10=100 avg60=7.5 avg300=0.125 total=5\n";
	ck_assert_int_eq(psi_parse(whole, strlen(whole), &p), 0);
	ck_assert_double_eq_tol(p.some.avg10, 100.0, 1e-9);
	ck_assert_double_eq_tol(p.some.avg60, 7.5, 1e-9);
	ck_assert_double_eq_tol(p.some.avg300, 0.125, 1e-9);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, membership);
	tcase_add_test(tc, membership_cut_by_the_kernel);
	tcase_add_test(tc, mounts);
	tcase_add_test(tc, unit_names);
	tcase_add_test(tc, pressure);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
