/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A shared object that is not a taskview plugin: no entry symbol. */
int not_a_plugin(void);

int not_a_plugin(void)
{
	return 42;
}
