// Interface addresses for Swift (see CWaylandProtocols.h). Hand-written; not generated.
#include "CWaylandProtocols.h"

const struct wl_interface *silk_wl_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *silk_wl_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *silk_wl_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *silk_wl_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *silk_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
const struct wl_interface *silk_zxdg_decoration_manager_v1_interface(void) { return &zxdg_decoration_manager_v1_interface; }
const struct wl_interface *silk_wp_viewporter_interface(void) { return &wp_viewporter_interface; }
const struct wl_interface *silk_wp_fractional_scale_manager_v1_interface(void) { return &wp_fractional_scale_manager_v1_interface; }
const struct wl_interface *silk_wp_presentation_interface(void) { return &wp_presentation_interface; }
const struct wl_interface *silk_wl_data_device_manager_interface(void) { return &wl_data_device_manager_interface; }
const struct wl_interface *silk_zwp_text_input_manager_v3_interface(void) { return &zwp_text_input_manager_v3_interface; }
