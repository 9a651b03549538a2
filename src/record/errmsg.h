/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages of the recorder and the reader that name a file. */
#ifndef TV_RECORD_ERRMSG_H
#define TV_RECORD_ERRMSG_H

/* fmt with path, and with e also strerror(e) (fmt then has two %s); malloc'ed, NULL when out of memory. */
char *rec_err_path(const char *fmt, const char *path, int e);

#endif
