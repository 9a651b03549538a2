/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gettext wrappers; compile to English when NLS is disabled. */
#ifndef TV_UTIL_I18N_H
#define TV_UTIL_I18N_H

#include "config.h"

#if TV_ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#define P_(one, many, n) ngettext(one, many, n)
#else
#define _(s) (s)
#define P_(one, many, n) ((n) == 1 ? (one) : (many))
#endif
#define N_(s) (s)

#endif
