/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CUSTOM_CHECK_H
#define ENTITLE_CUSTOM_CHECK_H

#include "catalogue.h"
#include "error.h"

/**
 * Check what the custom rows of @cat name against the libraries that
 * know the names: each capability with libcap, each syscall with
 * libseccomp (for the native architecture).  An unknown one is one line
 * naming the admin config, the entitlement and the name.  entitle-full
 * calls it when it loads the admin config; the front cannot (it links
 * neither library), nor needs to (it applies no policy).
 */
int entitle_custom_check (const struct entitle_catalogue_s *cat, entitle_error_t *err);

#endif
