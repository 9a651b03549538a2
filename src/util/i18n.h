/* gettext wrappers; compile to identity when NLS is disabled. */
#ifndef TV_UTIL_I18N_H
#define TV_UTIL_I18N_H

#include "config.h"

#if TV_ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) (s)
#endif
#define N_(s) (s)

#endif
