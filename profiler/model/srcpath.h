// SPDX-License-Identifier: GPL-2.0-or-later
/* srcpath.h — where the reports read source files from (issue 10 part 4).
 *
 * DWARF names a file as the binutils do (symbols.c joins DW_AT_comp_dir,
 * the line table's directory and the file name; a relative comp dir stays
 * relative: it is taken against the current directory). The reports then
 * look it up like gdb and gprof:
 *   1. every --source-map OLD=NEW whose OLD is a leading part of the path
 *      (whole components, gdb's substitute-path) rewrites it: the
 *      rewritten path first, then the path as DWARF gives it;
 *   2. each of those as is (relative ones against the current directory);
 *   3. for each --source-dir DIR in order (gprof -I): DIR/path for a
 *      relative path, then DIR/basename.
 * The first regular file that can be read wins. The rules are set once per
 * process (cli) before the reports are written.
 */
#ifndef NOCPROF_SRCPATH_H
#define NOCPROF_SRCPATH_H

#include <glib.h>
#include <stdbool.h>

/* dirs and maps: NULL-terminated (may be NULL). maps are "OLD=NEW".
 * Error: NOCPROF_ERROR_USAGE for a map without '=' or with an empty OLD. */
bool srcpath_configure(char **dirs, char **maps, GError **error);
/* Forget the rules (tests). */
void srcpath_reset(void);
/* The contents of `file`, found by the rules above (g_free), or NULL; *used
 * (may be NULL) gets the path read, and `tried` (may be NULL) every path
 * tried, in order (g_free'd strings; the caller owns the array). Only a
 * regular file of at most SRCPATH_MAX_FILE bytes is read (the ELF's DWARF
 * names the files: a FIFO, a device or a huge file is no source). */
#define SRCPATH_MAX_FILE ((gsize)64 << 20)
char *srcpath_read(const char *file, gsize *len, char **used, GPtrArray *tried);

/* The absolute path (canonical against the current directory) of the file
 * the rules above would read for `file`, or of `file` as mapped when none
 * is found (g_free). Never NULL. */
char *srcpath_find(const char *file);

#endif
