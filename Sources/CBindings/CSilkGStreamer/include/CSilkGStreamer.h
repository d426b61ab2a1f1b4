// CSilkGStreamer: SilkVideo's GStreamer pipeline in C — playbin with an appsink producing BGRA
// frames, a bus sync handler that turns messages into plain events, and the controls (state,
// seek, volume). GLib's variadic property setters and GStreamer's macros stay here, so the Swift
// side sees only this header (no GLib types) and no GLib main loop is ever run.
#ifndef CSILKGSTREAMER_H
#define CSILKGSTREAMER_H

#include <stddef.h>
#include <stdint.h>

/// One decoded frame: BGRA bytes (native-endian premultiplied ARGB32 for opaque video), valid
/// until `silk_gst_frame_release(handle)`.
typedef struct {
    const uint8_t *data;
    int width;
    int height;
    int stride;
    /// Presentation time in seconds (-1 when unknown).
    double pts;
    /// The stream's own size (square pixels) before Silk's scaling to the node.
    int source_width;
    int source_height;
    void *handle;
} SilkGstFrame;

/// Events from the bus, reported from whichever GStreamer thread posted the message.
typedef enum {
    SILK_GST_EVENT_EOS = 1,
    SILK_GST_EVENT_ERROR = 2,
    SILK_GST_EVENT_MISSING_PLUGIN = 3,
    /// A state change, preroll or flushing seek completed (ASYNC_DONE).
    SILK_GST_EVENT_ASYNC_DONE = 4,
    SILK_GST_EVENT_WARNING = 5,
    /// The stream could not be opened or read (file missing, HTTP error).
    SILK_GST_EVENT_RESOURCE_ERROR = 6,
} SilkGstEventKind;

/// A new frame (a streaming thread). The callee owns `frame.handle` and must release it.
typedef void (*SilkGstFrameCallback)(void *context, SilkGstFrame frame);
/// A bus event (any GStreamer thread); `message` is valid only during the call. Must return
/// quickly and must not change the pipeline's state (hand the work to another thread).
typedef void (*SilkGstEventCallback)(void *context, int kind, const char *message);

/// The decoded stream has (or changed to) `source_width` × `source_height` (square pixels), on a
/// streaming thread before its next frame is scaled: the callee sets `*width` × `*height` to the
/// size frames should be scaled to (0 × 0, as on entry: the stream's size). Must return quickly.
typedef void (*SilkGstSizeCallback)(void *context, int source_width, int source_height, int *width, int *height);

typedef struct SilkGstPlayer SilkGstPlayer;

/// Initialises GStreamer once (thread-safe). Returns 0, or -1 with the reason in `message`.
int silk_gst_initialize(char *message, size_t message_size);

/// A paused-to-null playbin for `uri` (file:// or http(s)://) whose video goes to an appsink as
/// BGRA at the stream's size (square pixels) until silk_gst_player_set_size. Returns NULL with
/// the reason in `message` when a needed element is missing. Callbacks start once the state is
/// set to paused or playing.
SilkGstPlayer *silk_gst_player_new(const char *uri, void *context, SilkGstFrameCallback on_frame,
                                   SilkGstEventCallback on_event, SilkGstSizeCallback on_size,
                                   char *message, size_t message_size);
/// 0 null, 1 ready, 2 paused, 3 playing. Returns -1 when the change failed at once.
int silk_gst_player_set_state(SilkGstPlayer *player, int state);
/// The size frames are scaled to (GStreamer renegotiates; frames already on their way keep the
/// old size); 0 × 0: the stream's size. Call from the control thread, not a streaming thread.
void silk_gst_player_set_size(SilkGstPlayer *player, int width, int height);
/// A flushing seek to `seconds`; `accurate` decodes to the exact frame. Returns 0 or -1.
int silk_gst_player_seek(SilkGstPlayer *player, double seconds, int accurate);
void silk_gst_player_set_volume(SilkGstPlayer *player, double volume);
void silk_gst_player_set_mute(SilkGstPlayer *player, int mute);
/// The pipeline's own volume and mute properties (what its sound really plays at).
void silk_gst_player_get_volume(SilkGstPlayer *player, double *volume, int *mute);
/// Seconds, or -1 when unknown.
double silk_gst_player_position(SilkGstPlayer *player);
double silk_gst_player_duration(SilkGstPlayer *player);
/// Frees the player: waits for callbacks already running to return (a frame being copied) and
/// stops new ones from reaching `context`, removes the callbacks, stops the pipeline (to null:
/// every streaming thread has returned) and unrefs it. No callback runs, or is still running,
/// once it returns, so `context` may be freed then. Never call it from one of the player's
/// callbacks (it would wait for itself; it warns and does not wait instead).
void silk_gst_player_free(SilkGstPlayer *player);
/// Test seam: pipelines made by silk_gst_player_new and not yet destroyed by GStreamer.
int silk_gst_live_pipelines(void);

void silk_gst_frame_release(void *handle);

/// Converts a file path to a file:// URI (NULL when it cannot); free with silk_gst_free.
char *silk_gst_filename_to_uri(const char *path);
void silk_gst_free(void *p);
/// Test seam: sets a plugin feature's rank (0 stops decodebin from choosing it). Returns 0 when
/// the feature exists.
int silk_gst_set_feature_rank(const char *name, int rank);

/// Runs `description` (a gst-launch pipeline, e.g. videotestsrc ! vp8enc ! webmmux ! filesink)
/// to its end or `timeout_seconds`: makes demo and benchmark clips without gst-launch-1.0.
/// Returns 0, or -1 with GStreamer's reason in `message`.
int silk_gst_run_pipeline(const char *description, double timeout_seconds, char *message, size_t message_size);

#endif
