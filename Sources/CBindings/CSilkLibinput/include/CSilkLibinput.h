#ifndef CSILK_LIBINPUT_H
#define CSILK_LIBINPUT_H
#include <libinput.h>

/// Receives one formatted libinput log message (no trailing newline) with the context's user
/// data (libinput_get_user_data).
typedef void (*silk_libinput_log_fn)(void *user_data, enum libinput_log_priority priority, const char *message);

/// Installs a log handler on `li` that formats each message with vsnprintf (at most 511 bytes,
/// longer ones cut) and hands it to `fn`. libinput's own handler type takes a va_list, which
/// Swift cannot portably receive: on aarch64 it is a struct, and Swift 6.0.3 crashed (signal 11
/// in SILGen) compiling a closure of that type; Swift code sees only `fn`'s plain C string.
void silk_libinput_set_log_handler(struct libinput *li, silk_libinput_log_fn fn);

#endif
