#include "render/tui/tui.h"

#include <stdio.h>

int tui_run(struct app *a, const struct cli_opts *o)
{
	(void)a;
	(void)o;
	fprintf(stderr, "taskview: interactive mode is not available yet; use -b\n");
	return 1;
}
