/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_DATADIR_H
#define DB_DATADIR_H
/*
 * Where drivebench's own data lives (presets/, themes/, specs/): $DRIVEBENCH_DATADIR when
 * it is set and not empty (the source tree, for `make run`, the tests and the benches),
 * else the install's data directory, fixed at build time from the Makefile's DATADIR
 * (PREFIX/share/drivebench). The program never looks at the tree it was built in.
 */
const char *db_datadir(void);
#endif
