/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_ERRBUF_H
#define DB_ERRBUF_H
/*
 * The one size of a message buffer that a caller hands to a function that may fail (the
 * error convention's char *err, size_t errlen): a line a person reads, with a path or two
 * in it. Where a message is kept (a result's or a step's error, result.h) has its own
 * fixed size, part of the result's form, and cuts it there.
 */
#define DB_ERR_LEN 1024 /* bytes, the NUL included */

#endif
