#include "CSilkLibinput.h"
#include <stdio.h>
#include <string.h>

static silk_libinput_log_fn silk_log_fn;

static void silk_libinput_log(struct libinput *li, enum libinput_log_priority priority, const char *format, va_list args) {
    char buffer[512];
    if (!silk_log_fn || !format) return;
    vsnprintf(buffer, sizeof buffer, format, args);
    size_t n = strlen(buffer);
    while (n > 0 && buffer[n - 1] == '\n') buffer[--n] = '\0';
    silk_log_fn(libinput_get_user_data(li), priority, buffer);
}

void silk_libinput_set_log_handler(struct libinput *li, silk_libinput_log_fn fn) {
    /* One receiver for the process: every Silk context passes the same Swift function, which
       finds its input object through the context's user data. */
    silk_log_fn = fn;
    libinput_log_set_handler(li, silk_libinput_log);
}
