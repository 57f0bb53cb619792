/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * containerd's drop-in: the runtimes go into a file of their own, and the
 * main config gets one entry in its top-level `imports`, which
 * `configure --remove` takes out again byte for byte.  containerd 1.x
 * replaces a plugin's whole table with the one an imported file has
 * (containerd issue 5837): the drop-in carries a copy of the main
 * config's CRI plugin tables, as nvidia-ctk's does.
 */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "configure.h"
#include "toml-edit.h"
#include "utils.h"

/* How entitle listed the drop-in in the main config, recorded in the
   drop-in so that --remove undoes exactly that: it made the `file`, the
   `key` (its line), an `item` of an array there, or `none` (listed
   already).  */
#define MARK "# entitle-imports: "

static const char *const root[] = { NULL };

/* What the drop-in records, or NULL.  */
static const char *
recorded (const struct configure_file *dropin)
{
  static const char *const marks[] = { "file", "key", "item", "none", NULL };
  const char *m = dropin->existed ? strstr (dropin->before, "\n" MARK) : NULL;
  size_t i;

  for (i = 0; m && marks[i]; i++)
    if (strncmp (m + strlen ("\n" MARK), marks[i], strlen (marks[i])) == 0
        && m[strlen ("\n" MARK) + strlen (marks[i])] == '\n')
      return marks[i];
  return NULL;
}

/* The main config's version, which the edit of it has checked: 2 or 3,
   and 2 for a file without keys (containerd reads its drop-ins' then).  */
static int
main_version (entitle_toml_t *doc, bool bare, char **version, entitle_error_t *err)
{
  int ret = bare ? 0 : entitle_toml_get (doc, root, "version", version, err);

  if (ret == 0)
    *version = xstrdup ("2");
  return ret < 0 ? ret : 0;
}

/* A CRI table without the default runtime's table fails the CRI plugin
   (`no corresponding runtime configured`): runc's, as containerd's
   default has it, when the copy has none.  */
static int
keep_runc (const char *dropin, char **text, size_t *len, const char *version, entitle_error_t *err)
{
  const char *plugin = entitle_engine_cri_plugin (version);
  const char *cri[] = { "plugins", plugin, "containerd", NULL };
  const char *runc[] = { "plugins", plugin, "containerd", "runtimes", "runc", NULL };
  cleanup_toml entitle_toml_t *doc = NULL;
  cleanup_free char *name = NULL;
  int ret;

  ret = entitle_toml_parse (dropin, *text, *len, &doc, err);
  if (ret == 0)
    ret = entitle_toml_get_string (doc, cri, "default_runtime_name", &name, err);
  if (ret < 0 || (name && strcmp (name, "runc") != 0) || entitle_toml_has_table (doc, runc))
    return ret < 0 ? ret : 0;
  ret = entitle_toml_set (doc, runc, "runtime_type", "\"io.containerd.runc.v2\"", err);
  if (ret == 0)
    {
      free (*text);
      *text = entitle_toml_text (doc, len);
    }
  return ret;
}

/* Does @main hold nothing but an `imports` line (the file entitle made,
   or an empty one)?  containerd reads it, and the version of the
   drop-ins it imports.  */
static int
is_bare (const struct configure_file *main, bool *bare, entitle_error_t *err)
{
  cleanup_toml entitle_toml_t *doc = NULL;
  int ret = entitle_toml_parse (main->path, main->before, main->blen, &doc, err);

  if (ret == 0)
    ret = entitle_toml_delete (doc, root, "imports", err);
  *bare = ret >= 0 && entitle_toml_is_empty (doc);
  return ret < 0 ? ret : 0;
}

/* The drop-in before the runtimes: what it is, how it was listed, the
   version and the copy.  */
static char *
dropin_head (const char *main_path, const char *mark, const char *version, const char *copy)
{
  char *text;

  xasprintf (&text,
             "# Written by `entitle configure containerd`, imported by %s;\n"
             "# `entitle configure containerd --remove` deletes it and its entry there.\n"
             "# containerd 1.x replaces a plugin's whole table with an imported one's:\n"
             "# the CRI plugin's tables of %s are copied here, again at each\n"
             "# `entitle configure containerd`.\n" MARK "%s\n"
             "version = %s\n%s%s",
             main_path, main_path, mark, version, *copy ? "\n" : "", copy);
  return text;
}

/* List @dropin in @doc's imports, and say how in @mark: the key made
   (in the `file` entitle made, or on a `key` line of its own), an `item`
   added to the array there; listed already, what the drop-in recorded,
   else `none`.  */
static int
add_import (entitle_toml_t *doc, const struct configure_file *main, const struct configure_file *dropin,
            const char **mark, entitle_error_t *err)
{
  cleanup_free char *raw = NULL, *quoted = NULL, *array = NULL;
  int ret = entitle_toml_get (doc, root, "imports", &raw, err);

  if (ret > 0)
    {
      ret = entitle_toml_array_add (doc, root, "imports", dropin->path, err);
      *mark = ret > 0 ? "item" : recorded (dropin);
      if (*mark == NULL)
        *mark = "none";
      return ret < 0 ? ret : 0;
    }
  if (UNLIKELY (ret < 0))
    return ret;
  *mark = main->existed ? "key" : "file";
  quoted = entitle_toml_string (dropin->path);
  xasprintf (&array, "[%s]", quoted);
  return entitle_toml_prepend_key (doc, "imports", array, err);
}

int
configure_containerd_dropin (const struct entitle_engine_s *engine, struct configure_file *main,
                             struct configure_file *dropin, const struct entitle_engine_runtime_s *runtimes,
                             size_t n, entitle_error_t *err)
{
  cleanup_toml entitle_toml_t *doc = NULL;
  cleanup_free char *version = NULL, *copy = NULL, *head = NULL;
  const char *mark = NULL;
  size_t copy_len, head_len;
  bool bare = false;
  int ret;

  if (dropin->path[0] != '/')
    return entitle_make_error (err, EINVAL, "configure: `--drop-in %s`: containerd imports an absolute path",
                               dropin->path);
  /* What entitle would refuse to edit in the main config is refused
     naming its line there, not the copy's.  */
  ret = is_bare (main, &bare, err);
  if (ret == 0 && !bare)
    ret = engine->edit (main->path, main->before, main->blen, runtimes, n, &main->after, &main->alen, err);
  free (get_and_reset (&main->after));
  if (ret == 0)
    ret = entitle_toml_parse (main->path, main->before, main->blen, &doc, err);
  if (ret == 0)
    ret = main_version (doc, bare, &version, err);
  if (ret == 0)
    {
      const char *cri[] = { "plugins", entitle_engine_cri_plugin (version), NULL };
      copy = entitle_toml_tree_text (doc, cri, &copy_len, err);
      ret = copy ? 0 : -1;
    }
  if (ret == 0)
    ret = add_import (doc, main, dropin, &mark, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "configure");
  main->after = entitle_toml_text (doc, &main->alen);
  head = dropin_head (main->path, mark, version, copy);
  head_len = strlen (head);
  ret = keep_runc (dropin->path, &head, &head_len, version, err);
  if (ret == 0)
    ret = engine->edit (dropin->path, head, head_len, runtimes, n, &dropin->after, &dropin->alen, err);
  return ret < 0 ? entitle_error_wrap (err, "configure") : 0;
}

int
configure_containerd_undo (struct configure_file *main, struct configure_file *dropin, entitle_error_t *err)
{
  cleanup_toml entitle_toml_t *doc = NULL;
  cleanup_free char *raw = NULL;
  const char *mark = recorded (dropin);
  int ret;

  /* The drop-in goes; a file that does not list it stays as it is.  */
  dropin->after = NULL;
  ret = entitle_toml_parse (main->path, main->before, main->blen, &doc, err);
  if (ret == 0 && main->existed && mark && strcmp (mark, "none") != 0)
    ret = entitle_toml_array_remove (doc, root, "imports", dropin->path, err);
  if (ret > 0 && strcmp (mark, "item") != 0 && entitle_toml_get (doc, root, "imports", &raw, err) > 0
      && strcmp (raw, "[]") == 0)
    ret = entitle_toml_delete (doc, root, "imports", err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "configure");
  if (!main->existed)
    return 0;
  main->after = entitle_toml_text (doc, &main->alen);
  /* The file entitle made, with nothing left in it.  */
  if (mark && strcmp (mark, "file") == 0 && ret > 0 && main->alen == 0)
    free (get_and_reset (&main->after));
  return 0;
}
