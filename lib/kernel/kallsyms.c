/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "kallsyms.h"
#include "utils.h"

/* The kernel's function addresses, in the file's order (not sorted
   everywhere: a function's end is looked for in all of them).  */
struct addrs_s
{
  uint64_t *v;
  size_t n, room;
};

/* A line of /proc/kallsyms: "ADDRESS TYPE NAME [MODULE]"; only functions
   (text, t or T) count.  */
#define NAME_MAX_LEN 128

static bool
text_symbol (const char *line, uint64_t *addr, char name[NAME_MAX_LEN])
{
  char type;

  return sscanf (line, "%" SCNx64 " %c %127s", addr, &type, name) == 3 && (type == 't' || type == 'T');
}

static void
push (struct addrs_s *a, uint64_t addr)
{
  if (a->n == a->room)
    {
      a->room = a->room ? a->room * 2 : 65536;
      a->v = xrealloc (a->v, a->room * sizeof (*a->v));
    }
  a->v[a->n++] = addr;
}

/* The first function after @start: its end.  */
static uint64_t
end_of (const struct addrs_s *a, uint64_t start)
{
  uint64_t end = UINT64_MAX;

  for (size_t i = 0; i < a->n; i++)
    if (a->v[i] > start && a->v[i] < end)
      end = a->v[i];
  return end == UINT64_MAX ? 0 : end;
}

/* Every function's address into @a, each of @names' into @ranges[k][0].  */
static int
read_all (const char *const *names, size_t n, uint64_t (*ranges)[2], struct addrs_s *a, entitle_error_t *err)
{
  cleanup_file FILE *f = fopen ("/proc/kallsyms", "re");
  cleanup_free char *line = NULL;
  size_t cap = 0, k;

  if (f == NULL)
    return entitle_make_sys_error (err, "open `/proc/kallsyms`");
  while (getline (&line, &cap, f) > 0)
    {
      char name[NAME_MAX_LEN];
      uint64_t addr;

      if (!text_symbol (line, &addr, name) || addr == 0)
        continue;
      push (a, addr);
      for (k = 0; k < n; k++)
        if (ranges[k][0] == 0 && strcmp (names[k], name) == 0)
          ranges[k][0] = addr;
    }
  return 0;
}

int
entitle_kallsyms_ranges (const char *const *names, size_t n, uint64_t (*ranges)[2], entitle_error_t *err)
{
  struct addrs_s a = { 0 };
  size_t found = 0, k;
  int ret;

  memset (ranges, 0, n * sizeof (*ranges));
  ret = read_all (names, n, ranges, &a, err);
  for (k = 0; ret == 0 && k < n; k++)
    if (ranges[k][0] != 0 && (ranges[k][1] = end_of (&a, ranges[k][0])) != 0)
      found++;
    else
      ranges[k][0] = ranges[k][1] = 0;
  if (ret == 0 && a.n == 0)
    ret = entitle_make_error (err, EPERM, "the kernel hides its functions' addresses (kernel.kptr_restrict)");
  else if (ret == 0 && found == 0)
    ret = entitle_make_error (err, ENOENT, "none of the functions looked for is in `/proc/kallsyms`");
  free (a.v);
  return ret;
}
