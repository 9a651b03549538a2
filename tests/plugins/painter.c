/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plugins whose strings are terminal escape sequences: taskview must show
 * them escaped wherever it prints them. Built once per PAINTER_* mode:
 * PAINTER_NAME (an invalid name: red, in the rejection message),
 * PAINTER_ID (an invalid column id, likewise) and PAINTER_VALUE (a valid
 * plugin whose string values clear the screen and set the window title).
 */
#include <stddef.h>

#include <taskview/plugin.h>

#define PAINT "\033[31m\033]2;painted\007\033[2J"

#if defined(PAINTER_NAME)
#define NAME "painter" PAINT
#define ID "painter.value"
#elif defined(PAINTER_ID)
#define NAME "painter_id"
#define ID "painter_id." PAINT
#elif defined(PAINTER_VALUE)
#define NAME "painter_value"
#define ID "painter_value.text"
#else
#error "no PAINTER_<MODE> given"
#endif

static void painter_collect(void *state, const struct taskview_host *host, const struct taskview_task *task,
                            struct taskview_values *values)
{
	(void)state, (void)task;
	host->set_string(values, 0, "red" PAINT "\xc2\x9b" "31m");
}

static struct taskview_column painter_columns[] = {
	{.id = ID, .header = "PAINT", .type = TASKVIEW_TYPE_STRING, .width = 12},
};

static const struct taskview_plugin painter_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = NAME,
	.columns = painter_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = painter_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &painter_plugin;
}
