/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_ADMIN_H
#define ENTITLE_PROBE_ADMIN_H

/* What entitle-probe.c gives its other files: "ok" or the errno's name
   (exit 0 or 1), a word of the command's own (exit 0), a usage error.  */
int probe_report (int ret);
int probe_word (const char *word);
int probe_usage (void);

/** The admin attacks of probe-admin.c: the exit status, or -1 when @cmd
    is none of them.  */
int probe_admin (const char *cmd, int argc, char **argv);

#endif
