// imclient: a scripted input method for wlroots compositors (sway), speaking
// zwp_input_method_v2 — the compositor side of what fcitx5 or IBus would do. The compositor relays
// it to the focused client's zwp_text_input_v3, so Silk's text fields get pre-edit, commit and
// delete-surrounding exactly as from a real input method. For the Silk end-to-end tests.
//
// Commands, one per line on stdin (each answered "ok COMMAND" on stdout once sent and flushed):
//   wait-active [SECONDS]         until a text field is focused: activate + done (default 10 s)
//   preedit TEXT BEGIN END        set_preedit_string (BEGIN/END: byte offsets, -1 hides) + commit
//   commit TEXT                   commit_string + commit
//   delete BEFORE AFTER           delete_surrounding_text (bytes) + commit
//   sleep MS                      keep dispatching for MS milliseconds
//   quit
// Events are printed as they arrive: "activate", "deactivate", "surrounding "TEXT" CURSOR
// ANCHOR", "content_type HINT PURPOSE", "done N", "unavailable".
//
// input-method-unstable-v2 is not in Debian 12's wayland-protocols, so its interfaces are
// described by hand below (messages in the protocol's order; the popup and keyboard-grab
// interfaces are named only, never created), as vpointer.c does for the virtual pointer.
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

static const struct wl_interface zwp_input_method_v2_interface;
static const struct wl_interface zwp_input_popup_surface_v2_interface = { "zwp_input_popup_surface_v2", 1, 0, NULL, 0, NULL };
static const struct wl_interface zwp_input_method_keyboard_grab_v2_interface = { "zwp_input_method_keyboard_grab_v2", 1, 0, NULL, 0, NULL };

static const struct wl_interface *types[] = {
    NULL, NULL, NULL,
    &wl_seat_interface, &zwp_input_method_v2_interface,                       // 3: get_input_method
    &zwp_input_popup_surface_v2_interface, &wl_surface_interface,              // 5: get_input_popup_surface
    &zwp_input_method_keyboard_grab_v2_interface,                              // 7: grab_keyboard
};
static const struct wl_message im_requests[] = {
    { "commit_string", "s", types },
    { "set_preedit_string", "sii", types },
    { "delete_surrounding_text", "uu", types },
    { "commit", "u", types },
    { "get_input_popup_surface", "no", types + 5 },
    { "grab_keyboard", "n", types + 7 },
    { "destroy", "", types },
};
static const struct wl_message im_events[] = {
    { "activate", "", types },
    { "deactivate", "", types },
    { "surrounding_text", "suu", types },
    { "text_change_cause", "u", types },
    { "content_type", "uu", types },
    { "done", "", types },
    { "unavailable", "", types },
};
static const struct wl_interface zwp_input_method_v2_interface = { "zwp_input_method_v2", 1, 7, im_requests, 7, im_events };
static const struct wl_message manager_requests[] = { { "get_input_method", "on", types + 3 }, { "destroy", "", types } };
static const struct wl_interface zwp_input_method_manager_v2_interface = { "zwp_input_method_manager_v2", 1, 2, manager_requests, 0, NULL };

enum { COMMIT_STRING, SET_PREEDIT_STRING, DELETE_SURROUNDING_TEXT, COMMIT };

static struct wl_display *display;
static struct wl_proxy *manager, *im;
static struct wl_seat *seat;
static uint32_t done_count;
static int active, active_pending, unavailable;

static void ev_activate(void *d, struct wl_proxy *p) { (void)d; (void)p; active_pending = 1; printf("activate\n"); }
static void ev_deactivate(void *d, struct wl_proxy *p) { (void)d; (void)p; active_pending = 0; printf("deactivate\n"); }
static void ev_surrounding(void *d, struct wl_proxy *p, const char *text, uint32_t cursor, uint32_t anchor) {
    (void)d; (void)p; printf("surrounding \"%s\" %u %u\n", text ? text : "", cursor, anchor);
}
static void ev_cause(void *d, struct wl_proxy *p, uint32_t cause) { (void)d; (void)p; printf("cause %u\n", cause); }
static void ev_content_type(void *d, struct wl_proxy *p, uint32_t hint, uint32_t purpose) {
    (void)d; (void)p; printf("content_type %u %u\n", hint, purpose);
}
static void ev_done(void *d, struct wl_proxy *p) {
    (void)d; (void)p; done_count++; active = active_pending; printf("done %u\n", done_count);
}
static void ev_unavailable(void *d, struct wl_proxy *p) { (void)d; (void)p; unavailable = 1; printf("unavailable\n"); }
static void (*const im_listener[])(void) = {
    (void (*)(void))ev_activate, (void (*)(void))ev_deactivate, (void (*)(void))ev_surrounding,
    (void (*)(void))ev_cause, (void (*)(void))ev_content_type, (void (*)(void))ev_done, (void (*)(void))ev_unavailable,
};

static void global(void *d, struct wl_registry *r, uint32_t name, const char *iface, uint32_t version) {
    (void)d; (void)version;
    if (!strcmp(iface, "zwp_input_method_manager_v2")) manager = wl_registry_bind(r, name, &zwp_input_method_manager_v2_interface, 1);
    else if (!strcmp(iface, "wl_seat") && !seat) seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
}
static void global_remove(void *d, struct wl_registry *r, uint32_t name) { (void)d; (void)r; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

static long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

// Dispatches events for up to ms milliseconds (until *until becomes true, when given).
static int pump(long ms, const int *until) {
    long deadline = now_ms() + ms;
    for (;;) {
        if (wl_display_dispatch_pending(display) < 0) return -1;
        fflush(stdout);
        if (until && *until) return 0;
        long left = deadline - now_ms();
        if (left <= 0) return until ? -2 : 0;
        wl_display_flush(display);
        struct pollfd p = { wl_display_get_fd(display), POLLIN, 0 };
        if (poll(&p, 1, (int)left) > 0 && wl_display_dispatch(display) < 0) return -1;
    }
}

static void commit(void) {
    wl_proxy_marshal_flags(im, COMMIT, NULL, 1, 0, done_count);
    wl_display_flush(display);
}

int main(void) {
    display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "imclient: cannot connect to the compositor\n"); return 2; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager || !seat) { fprintf(stderr, "imclient: the compositor offers no zwp_input_method_manager_v2 or no seat\n"); return 2; }
    im = wl_proxy_marshal_flags(manager, 0, &zwp_input_method_v2_interface, 1, 0, seat, NULL);
    wl_proxy_add_listener(im, (void (**)(void))im_listener, NULL);
    wl_display_roundtrip(display);
    if (unavailable) { fprintf(stderr, "imclient: another input method holds the seat\n"); return 2; }
    setvbuf(stdout, NULL, _IOLBF, 0);

    char line[4096];
    struct pollfd in = { 0, POLLIN, 0 };
    for (;;) {
        // Dispatch while waiting for the next command.
        while (poll(&in, 1, 0) == 0) { if (pump(50, NULL) < 0) { fprintf(stderr, "imclient: connection lost\n"); return 1; } }
        if (!fgets(line, sizeof line, stdin)) break;
        line[strcspn(line, "\n")] = 0;
        char text[4096];
        int a, b;
        if (!strncmp(line, "wait-active", 11)) {
            int secs = atoi(line + 11);
            if (pump((secs > 0 ? secs : 10) * 1000L, &active) < 0) { printf("timeout wait-active\n"); return 1; }
        } else if (sscanf(line, "preedit %4000s %d %d", text, &a, &b) == 3) {
            wl_proxy_marshal_flags(im, SET_PREEDIT_STRING, NULL, 1, 0, text, a, b);
            commit();
        } else if (sscanf(line, "commit %4000s", text) == 1) {
            wl_proxy_marshal_flags(im, COMMIT_STRING, NULL, 1, 0, text);
            commit();
        } else if (sscanf(line, "delete %d %d", &a, &b) == 2) {
            wl_proxy_marshal_flags(im, DELETE_SURROUNDING_TEXT, NULL, 1, 0, (uint32_t)a, (uint32_t)b);
            commit();
        } else if (sscanf(line, "sleep %d", &a) == 1) {
            pump(a, NULL);
        } else if (!strcmp(line, "quit")) {
            break;
        } else {
            fprintf(stderr, "imclient: unknown command: %s\n", line);
            return 2;
        }
        if (pump(0, NULL) == -1) { fprintf(stderr, "imclient: connection lost\n"); return 1; }
        printf("ok %s\n", line);
    }
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
