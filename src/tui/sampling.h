/* Taking samples for the screen. */
#ifndef TV_TUI_SAMPLING_H
#define TV_TUI_SAMPLING_H

#include "tui/state.h"

/* Takes a sample now. immediate: out of schedule (unfold, a column that
 * needs more), rates measured from the last scheduled sample. Returns 0 or
 * -1 (fatal). */
int tui_sample(struct tui *t, bool immediate);
/* Recomputes what the sampler reads after the columns or sort changed. */
void tui_columns_changed(struct tui *t);

#endif
