// The one C header Swift sees for libsecret (the Secret Service client); glib and gio come with it.
#ifndef KEYSCOPE_CLIBSECRET_SHIM_H
#define KEYSCOPE_CLIBSECRET_SHIM_H

#include <libsecret/secret.h>

#endif
