/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plugin for a future ABI major: only the v2 entry symbol exists. */
#include <taskview/plugin.h>

TASKVIEW_PLUGIN_EXPORT const void *taskview_plugin_v2(void);

const void *taskview_plugin_v2(void)
{
	return 0;
}
