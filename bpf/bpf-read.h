/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_READ_H
#define ENTITLE_BPF_READ_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

/* Reading what entitle pinned (ENTITLE_BPF_PINS) and what the kernel
   attached, with libbpf's calls: every caller is in entitle-full or
   entitle-hook, which link libbpf.  In a build without BPF (bpf/nobpf.c)
   nothing is pinned: every pin is absent (ENOENT), and the kernel's
   programs are not asked (ENOTSUP).  */

/** The object pinned as @name in entitle's pin directory; -1 and errno. */
int entitle_bpf_pin_get (const char *name);

/** Look @key up in the map @fd into @value; -1 and errno. */
int entitle_bpf_lookup (int fd, const void *key, void *value);

/**
 * The ids of the programs attached to the cgroup @cgfd for @type (with
 * BPF_F_QUERY_EFFECTIVE in @flags: those that run there, inherited
 * included) into @ids, @n in: its room, out: the count; -1 and errno.
 */
int entitle_bpf_cgroup_progs (int cgfd, enum bpf_attach_type type, uint32_t flags, uint32_t *ids, uint32_t *n);

/** The kernel's facts on the program of id @id; -1 and errno. */
int entitle_bpf_prog_info_by_id (uint32_t id, struct bpf_prog_info *info);

/** The kernel's facts on the object @fd (a struct bpf_prog_info or bpf_map_info of @len bytes). */
int entitle_bpf_info (int fd, void *info, uint32_t len);

#endif
