/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "runtime-roots.h"
#include "utils.h"

/* Below the base, one root each: Docker 20.10's containerd namespace
   moby (its exec root's runtime-runc), then the runtimes' own default
   roots as root, which Podman and CRI-O use.  */
static const char *const fixed[] = { "docker/runtime-runc/moby", "runc", "crun" };

/* containerd's runc shim adds the namespace to its root.  */
#define CONTAINERD_RUNC "containerd/runc"

const char *
entitle_runtime_roots_base (void)
{
  const char *base = getenv ("ENTITLE_RUN_DIR");

  return base && *base ? base : "/run";
}

static void
push (char ***v, size_t *n, char *s)
{
  *v = xrealloc (*v, (*n + 2) * sizeof (char *));
  (*v)[(*n)++] = s;
  (*v)[*n] = NULL;
}

static char **
empty (void)
{
  char **v = xcalloc (1, sizeof (char *));
  return v;
}

static char *
join_path (const char *a, const char *b, const char *c)
{
  char *p;

  xasprintf (&p, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
  return p;
}

static int
is_namespace (const struct dirent *d)
{
  return d->d_name[0] != '.';
}

/* Every namespace directory of containerd's runc root, sorted.  */
static void
containerd_roots (const char *base, char ***v, size_t *n)
{
  cleanup_free char *dir = join_path (base, CONTAINERD_RUNC, NULL);
  struct dirent **names = NULL;
  struct stat st;
  int i, count = scandir (dir, &names, is_namespace, alphasort);

  for (i = 0; i < count; i++)
    {
      char *root = join_path (dir, names[i]->d_name, NULL);

      if (stat (root, &st) == 0 && S_ISDIR (st.st_mode))
        push (v, n, root);
      else
        free (root);
      free (names[i]);
    }
  free (names);
}

char **
entitle_runtime_roots (const char *base)
{
  char **v = empty ();
  size_t n = 0, i;

  containerd_roots (base, &v, &n);
  for (i = 0; i < sizeof (fixed) / sizeof (fixed[0]); i++)
    push (&v, &n, join_path (base, fixed[i], NULL));
  return v;
}

char **
entitle_runtime_roots_holding (char *const *roots, const char *id)
{
  char **v = empty ();
  size_t n = 0;
  struct stat st;

  for (; *roots; roots++)
    {
      cleanup_free char *dir = join_path (*roots, id, NULL);

      if (stat (dir, &st) == 0 && S_ISDIR (st.st_mode))
        push (&v, &n, xstrdup (*roots));
    }
  return v;
}

char *
entitle_runtime_roots_join (char *const *roots)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&out, &len);

  if (f == NULL)
    abort ();
  for (size_t i = 0; roots[i]; i++)
    {
      const char *sep = roots[i + 1] ? ", " : " and ";
      fprintf (f, "%s%s", i == 0 ? "" : sep, roots[i]);
    }
  if (fclose (f) != 0)
    abort ();
  return out;
}
