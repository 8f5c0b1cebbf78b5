/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_VERSION_H
#define DB_VERSION_H
/* drivebench's version: written into every result and shown by --version. */
#define DB_VERSION "0.1.0"
#endif
