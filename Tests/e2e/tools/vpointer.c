// vpointer: moves, clicks and scrolls the pointer of a wlroots compositor (sway, cage) through
// zwlr_virtual_pointer_manager_v1, so the events reach the client *from the compositor* —
// exactly as a mouse's would. For the Silk end-to-end tests.
//
//   vpointer click X Y            move to output pixel (X, Y), press and release BTN_LEFT
//   vpointer move X Y
//   vpointer scroll X Y DY N MS   at (X, Y): N finger-scroll steps of DY, MS ms apart, then axis_stop
//   vpointer wheel X Y CLICKS     wheel clicks (value 15 and value120 ±120 each)
//
// The protocol's two interfaces are described by hand below (requests only, in XML order; the
// client never receives events from them), so no generated code is needed.
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

static const struct wl_interface zwlr_virtual_pointer_v1_interface;
static const struct wl_interface *vp_types[] = { NULL, NULL, NULL, NULL, NULL, &wl_seat_interface, &zwlr_virtual_pointer_v1_interface };
static const struct wl_message vp_requests[] = {
    { "motion", "uff", vp_types },
    { "motion_absolute", "uuuuu", vp_types },
    { "button", "uuu", vp_types },
    { "axis", "uuf", vp_types },
    { "frame", "", vp_types },
    { "axis_source", "u", vp_types },
    { "axis_stop", "uu", vp_types },
    { "axis_discrete", "uufi", vp_types },
    { "destroy", "", vp_types },
};
static const struct wl_interface zwlr_virtual_pointer_v1_interface = { "zwlr_virtual_pointer_v1", 1, 9, vp_requests, 0, NULL };
static const struct wl_message vpm_requests[] = { { "create_virtual_pointer", "?on", vp_types + 5 } };
static const struct wl_interface zwlr_virtual_pointer_manager_v1_interface = { "zwlr_virtual_pointer_manager_v1", 1, 1, vpm_requests, 0, NULL };

enum { MOTION, MOTION_ABSOLUTE, BUTTON, AXIS, FRAME, AXIS_SOURCE, AXIS_STOP, AXIS_DISCRETE, DESTROY };

static struct wl_proxy *manager;
static struct wl_seat *seat;
static int out_w, out_h;

static void output_mode(void *d, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t r) {
    (void)d; (void)o; (void)r;
    if (flags & WL_OUTPUT_MODE_CURRENT) { out_w = w; out_h = h; }
}
static void output_geometry(void *d, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph, int32_t s,
                            const char *m, const char *mo, int32_t t) { (void)d; (void)o; (void)x; (void)y; (void)pw; (void)ph; (void)s; (void)m; (void)mo; (void)t; }
static void output_done(void *d, struct wl_output *o) { (void)d; (void)o; }
static void output_scale(void *d, struct wl_output *o, int32_t s) { (void)d; (void)o; (void)s; }
static const struct wl_output_listener output_listener = { output_geometry, output_mode, output_done, output_scale };

static void global(void *d, struct wl_registry *r, uint32_t name, const char *iface, uint32_t version) {
    (void)d; (void)version;
    if (!strcmp(iface, "zwlr_virtual_pointer_manager_v1"))
        manager = wl_registry_bind(r, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    else if (!strcmp(iface, "wl_seat") && !seat)
        seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
    else if (!strcmp(iface, "wl_output") && !out_w) {
        struct wl_output *o = wl_registry_bind(r, name, &wl_output_interface, 2);
        wl_output_add_listener(o, &output_listener, NULL);
    }
}
static void global_remove(void *d, struct wl_registry *r, uint32_t name) { (void)d; (void)r; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: vpointer click|move|scroll|wheel X Y [...]\n"); return 2; }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "vpointer: no compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    wl_display_roundtrip(display);
    if (!manager) { fprintf(stderr, "vpointer: the compositor offers no zwlr_virtual_pointer_manager_v1\n"); return 1; }
    if (!out_w) { fprintf(stderr, "vpointer: no output size\n"); return 1; }
    struct wl_proxy *vp = wl_proxy_marshal_flags(manager, 0, &zwlr_virtual_pointer_v1_interface, 1, 0, seat, NULL);
    uint32_t x = (uint32_t)atoi(argv[2]), y = (uint32_t)atoi(argv[3]);
    // Absolute motion in output pixels (the extent is the output's mode size).
    wl_proxy_marshal_flags(vp, MOTION_ABSOLUTE, NULL, 1, 0, now_ms(), x, y, (uint32_t)out_w, (uint32_t)out_h);
    wl_proxy_marshal_flags(vp, FRAME, NULL, 1, 0);
    wl_display_roundtrip(display);
    usleep(50000);
    if (!strcmp(argv[1], "click")) {
        wl_proxy_marshal_flags(vp, BUTTON, NULL, 1, 0, now_ms(), BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
        wl_proxy_marshal_flags(vp, FRAME, NULL, 1, 0);
        wl_display_roundtrip(display);
        usleep(60000);
        wl_proxy_marshal_flags(vp, BUTTON, NULL, 1, 0, now_ms(), BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
        wl_proxy_marshal_flags(vp, FRAME, NULL, 1, 0);
    } else if (!strcmp(argv[1], "scroll") && argc >= 7) {
        double dy = atof(argv[4]);
        int steps = atoi(argv[5]), ms = atoi(argv[6]);
        for (int i = 0; i < steps; i++) {
            wl_proxy_marshal_flags(vp, AXIS_SOURCE, NULL, 1, 0, WL_POINTER_AXIS_SOURCE_FINGER);
            wl_proxy_marshal_flags(vp, AXIS, NULL, 1, 0, now_ms(), WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_double(dy));
            wl_proxy_marshal_flags(vp, FRAME, NULL, 1, 0);
            wl_display_flush(display);
            usleep(ms * 1000);
        }
        wl_proxy_marshal_flags(vp, AXIS_SOURCE, NULL, 1, 0, WL_POINTER_AXIS_SOURCE_FINGER);
        wl_proxy_marshal_flags(vp, AXIS_STOP, NULL, 1, 0, now_ms(), WL_POINTER_AXIS_VERTICAL_SCROLL);
        wl_proxy_marshal_flags(vp, FRAME, NULL, 1, 0);
    } else if (!strcmp(argv[1], "wheel") && argc >= 5) {
        int clicks = atoi(argv[4]);
        for (int i = 0; i < abs(clicks); i++) {
            int sign = clicks > 0 ? 1 : -1;
            wl_proxy_marshal_flags(vp, AXIS_SOURCE, NULL, 1, 0, WL_POINTER_AXIS_SOURCE_WHEEL);
            wl_proxy_marshal_flags(vp, AXIS_DISCRETE, NULL, 1, 0, now_ms(), WL_POINTER_AXIS_VERTICAL_SCROLL,
                                   wl_fixed_from_double(15.0 * sign), sign);
            wl_proxy_marshal_flags(vp, FRAME, NULL, 1, 0);
            wl_display_flush(display);
            usleep(30000);
        }
    }
    wl_display_roundtrip(display);
    wl_proxy_marshal_flags(vp, DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
