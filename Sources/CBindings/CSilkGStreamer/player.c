// SilkVideo's GStreamer pipeline (see include/CSilkGStreamer.h). No GLib main loop runs: the bus
// is read by a sync handler on the posting thread and frames come from appsink's callbacks.
#include "CSilkGStreamer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/pbutils/pbutils.h>

struct SilkGstPlayer {
    GstElement *pipeline;
    GstElement *sink;
    /// Scales and converts the decoded frames; its sink pad's caps give the stream's size.
    GstElement *convert;
    /// Restricts what `convert` produces (BGRA, square pixels, the size asked for).
    GstElement *caps;
    GstBus *bus;
    void *context;
    SilkGstFrameCallback on_frame;
    SilkGstEventCallback on_event;
    SilkGstSizeCallback on_size;
    GMutex lock;
    /// References: the owner's (until silk_gst_player_free) and one for each registration
    /// GStreamer holds — the bus sync handler, appsink's callbacks, the caps probe. GStreamer
    /// calls a registration's destroy notify only after its last call of it returned (it refs
    /// a handler before calling it outside its own lock), so this struct outlives every call.
    gint refs;
    /// The gate the callbacks pass before they touch `context` (guarded by `gate`): `closed` is
    /// set by free, `busy` counts the calls inside, `idle` is signalled when the last one leaves.
    GMutex gate;
    GCond idle;
    int closed;
    int busy;
    gulong probe;
    /// The size last set on `caps` (0 × 0: the stream's own size; -1: none yet; guarded by lock).
    int asked_width, asked_height;
    /// The last missing-plugin description the pipeline reported (guarded by lock).
    char missing[512];
};

typedef struct {
    GstSample *sample;
    GstBuffer *buffer;
    GstMapInfo map;
} FrameHandle;

/// Pipelines built and not yet finalized (test seam: every pipeline is really destroyed).
static gint live_pipelines = 0;

/// How many gates this thread is inside: silk_gst_player_free called from a callback must not
/// wait for the calls in flight (its own is one of them).
static __thread int callback_depth = 0;

static void player_unref(gpointer data) {
    SilkGstPlayer *p = data;
    if (!g_atomic_int_dec_and_test(&p->refs)) return;
    g_mutex_clear(&p->lock);
    g_mutex_clear(&p->gate);
    g_cond_clear(&p->idle);
    g_free(p);
}

/// A callback may reach the context: false once free has begun (the callback then returns at
/// once). Every true is paired with leave().
static int enter(SilkGstPlayer *p) {
    g_mutex_lock(&p->gate);
    int open = !p->closed;
    if (open) p->busy++;
    g_mutex_unlock(&p->gate);
    if (open) callback_depth++;
    return open;
}

static void leave(SilkGstPlayer *p) {
    callback_depth--;
    g_mutex_lock(&p->gate);
    if (--p->busy == 0 && p->closed) g_cond_broadcast(&p->idle);
    g_mutex_unlock(&p->gate);
}

static void pipeline_finalized(gpointer data, GObject *pipeline) {
    (void)data; (void)pipeline;
    g_atomic_int_add(&live_pipelines, -1);
}

static void copy_message(char *out, size_t size, const char *text) {
    if (out && size) snprintf(out, size, "%s", text ? text : "");
}

int silk_gst_initialize(char *message, size_t message_size) {
    static gsize once = 0;
    static int result = 0;
    static char reason[512];
    if (g_once_init_enter(&once)) {
        GError *error = NULL;
        if (!gst_init_check(NULL, NULL, &error)) {
            result = -1;
            snprintf(reason, sizeof reason, "GStreamer could not start: %s", error ? error->message : "unknown reason");
            if (error) g_error_free(error);
        } else {
            gst_pb_utils_init();
        }
        g_once_init_leave(&once, 1);
    }
    if (result != 0) copy_message(message, message_size, reason);
    return result;
}

/// The stream's display size in `caps` (its pixels stretched by its pixel aspect ratio, as the
/// scaler produces them unconstrained); 0 when the caps say nothing.
static void display_size(GstCaps *caps, int *width, int *height) {
    GstVideoInfo info;
    *width = 0; *height = 0;
    if (!caps || !gst_video_info_from_caps(&info, caps)) return;
    int w = GST_VIDEO_INFO_WIDTH(&info), h = GST_VIDEO_INFO_HEIGHT(&info);
    int n = GST_VIDEO_INFO_PAR_N(&info), d = GST_VIDEO_INFO_PAR_D(&info);
    if (n > 0 && d > 0 && n != d) w = (int)((gint64)w * n / d);
    if (w > 0 && h > 0) { *width = w; *height = h; }
}

/// Sets the caps filter to BGRA, square pixels and `width` × `height` (0 × 0: any size) unless
/// it has that already; the filter then asks upstream to renegotiate.
static void apply_size(SilkGstPlayer *p, int width, int height) {
    if (width <= 0 || height <= 0) { width = 0; height = 0; }
    g_mutex_lock(&p->lock);
    int same = p->asked_width == width && p->asked_height == height;
    p->asked_width = width; p->asked_height = height;
    g_mutex_unlock(&p->lock);
    if (same) return;
    GstCaps *caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "BGRA",
                                        "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
    if (width > 0) gst_caps_set_simple(caps, "width", G_TYPE_INT, width, "height", G_TYPE_INT, height, NULL);
    g_object_set(p->caps, "caps", caps, NULL);
    gst_caps_unref(caps);
}

/// The decoded stream's caps reach the scaler: before its first frame is scaled, the caps filter
/// is set to the size the node wants for a stream of that size, so no frame (and no buffer pool)
/// is made at a size the node does not draw.
static GstPadProbeReturn on_stream_caps(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    SilkGstPlayer *p = data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!event || GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    int sw, sh, w = 0, h = 0;
    display_size(caps, &sw, &sh);
    if (sw <= 0 || !enter(p)) return GST_PAD_PROBE_OK;
    if (p->on_size) p->on_size(p->context, sw, sh, &w, &h);
    apply_size(p, w, h);
    leave(p);
    return GST_PAD_PROBE_OK;
}

static void deliver(SilkGstPlayer *p, GstSample *sample, int preroll) {
    (void)preroll;
    if (!sample) return;
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstVideoInfo info;
    if (!caps || !buffer || !gst_video_info_from_caps(&info, caps)) { gst_sample_unref(sample); return; }
    FrameHandle *h = g_new0(FrameHandle, 1);
    h->sample = sample;
    h->buffer = buffer;
    if (!gst_buffer_map(buffer, &h->map, GST_MAP_READ)) { gst_sample_unref(sample); g_free(h); return; }
    if (h->map.size < (gsize)GST_VIDEO_INFO_PLANE_STRIDE(&info, 0) * (gsize)GST_VIDEO_INFO_HEIGHT(&info)) {
        gst_buffer_unmap(buffer, &h->map); gst_sample_unref(sample); g_free(h); return;
    }
    SilkGstFrame frame;
    frame.data = h->map.data + GST_VIDEO_INFO_PLANE_OFFSET(&info, 0);
    frame.width = GST_VIDEO_INFO_WIDTH(&info);
    frame.height = GST_VIDEO_INFO_HEIGHT(&info);
    frame.stride = GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    frame.pts = GST_CLOCK_TIME_IS_VALID(pts) ? (double)pts / GST_SECOND : -1;
    GstPad *pad = gst_element_get_static_pad(p->convert, "sink");
    GstCaps *input = pad ? gst_pad_get_current_caps(pad) : NULL;
    display_size(input, &frame.source_width, &frame.source_height);
    if (frame.source_width <= 0) { frame.source_width = frame.width; frame.source_height = frame.height; }
    if (input) gst_caps_unref(input);
    if (pad) gst_object_unref(pad);
    frame.handle = h;
    p->on_frame(p->context, frame);
}

// The sample is pulled even when the gate is closed, so appsink's queue does not hold it.
static GstFlowReturn on_new_sample(GstAppSink *sink, gpointer data) {
    GstSample *sample = gst_app_sink_pull_sample(sink);
    if (!enter(data)) { if (sample) gst_sample_unref(sample); return GST_FLOW_FLUSHING; }
    deliver(data, sample, 0);
    leave(data);
    return GST_FLOW_OK;
}

static GstFlowReturn on_new_preroll(GstAppSink *sink, gpointer data) {
    GstSample *sample = gst_app_sink_pull_preroll(sink);
    if (!enter(data)) { if (sample) gst_sample_unref(sample); return GST_FLOW_FLUSHING; }
    deliver(data, sample, 1);
    leave(data);
    return GST_FLOW_OK;
}

/// playbin's video chain decouples the decoder from the sink with a queue of three decoded
/// frames ("vqueue", full-size I420: 4 MB for 720p, and the decoder's pool grows to fill it).
/// Silk's appsink already keeps two scaled frames and drops late ones, so one decoded frame in
/// the queue is enough to keep the decoder running while the sink waits for its time.
static void on_element_setup(GstElement *playbin, GstElement *element, gpointer data) {
    (void)playbin; (void)data;
    GstElementFactory *factory = gst_element_get_factory(element);
    if (!factory || strcmp(GST_OBJECT_NAME(factory), "queue") != 0) return;
    gchar *name = gst_element_get_name(element);
    if (name && strcmp(name, "vqueue") == 0) g_object_set(element, "max-size-buffers", 1, NULL);
    g_free(name);
}

// Returns GST_BUS_DROP, which makes the handler the message's owner: it is unreffed here
// (every message holds a reference to the element that posted it; a lost one keeps that element,
// and through it the whole pipeline, alive).
static GstBusSyncReply on_bus_message(GstBus *bus, GstMessage *msg, gpointer data) {
    (void)bus;
    SilkGstPlayer *p = data;
    if (!enter(p)) { gst_message_unref(msg); return GST_BUS_DROP; }
    char text[1024];
    switch (GST_MESSAGE_TYPE(msg)) {
    case GST_MESSAGE_EOS:
        p->on_event(p->context, SILK_GST_EVENT_EOS, "end of stream");
        break;
    case GST_MESSAGE_ERROR:
    case GST_MESSAGE_WARNING: {
        GError *error = NULL;
        gchar *debug = NULL;
        int is_error = GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR;
        if (is_error) gst_message_parse_error(msg, &error, &debug); else gst_message_parse_warning(msg, &error, &debug);
        int kind = is_error ? SILK_GST_EVENT_ERROR : SILK_GST_EVENT_WARNING;
        const char *source = GST_MESSAGE_SRC_NAME(msg);
        g_mutex_lock(&p->lock);
        char missing[512];
        snprintf(missing, sizeof missing, "%s", p->missing);
        g_mutex_unlock(&p->lock);
        if (is_error && error && ((error->domain == GST_CORE_ERROR && error->code == GST_CORE_ERROR_MISSING_PLUGIN)
                                  || (error->domain == GST_STREAM_ERROR && error->code == GST_STREAM_ERROR_CODEC_NOT_FOUND))) {
            kind = SILK_GST_EVENT_MISSING_PLUGIN;
            if (missing[0]) snprintf(text, sizeof text, "no GStreamer plugin for %s (install the plugin package that provides it, e.g. gstreamer1.0-plugins-good or gstreamer1.0-libav)", missing);
            else snprintf(text, sizeof text, "%s (%s)", error->message, source ? source : "pipeline");
        } else if (is_error && error && error->domain == GST_RESOURCE_ERROR) {
            kind = SILK_GST_EVENT_RESOURCE_ERROR;
            snprintf(text, sizeof text, "%s (%s)", error->message, source ? source : "pipeline");
        } else {
            snprintf(text, sizeof text, "%s (%s)", error ? error->message : "unknown error", source ? source : "pipeline");
        }
        if (error) g_error_free(error);
        g_free(debug);
        p->on_event(p->context, kind, text);
        break;
    }
    case GST_MESSAGE_ELEMENT:
        if (gst_is_missing_plugin_message(msg)) {
            gchar *description = gst_missing_plugin_message_get_description(msg);
            g_mutex_lock(&p->lock);
            snprintf(p->missing, sizeof p->missing, "%s", description ? description : "an unknown format");
            g_mutex_unlock(&p->lock);
            g_free(description);
        }
        break;
    case GST_MESSAGE_ASYNC_DONE:
        if (GST_MESSAGE_SRC(msg) == GST_OBJECT(p->pipeline)) p->on_event(p->context, SILK_GST_EVENT_ASYNC_DONE, "");
        break;
    default:
        break;
    }
    leave(p);
    gst_message_unref(msg);
    return GST_BUS_DROP;
}

SilkGstPlayer *silk_gst_player_new(const char *uri, void *context, SilkGstFrameCallback on_frame,
                                   SilkGstEventCallback on_event, SilkGstSizeCallback on_size,
                                   char *message, size_t message_size) {
    if (silk_gst_initialize(message, message_size) != 0) return NULL;
    GstElement *pipeline = gst_element_factory_make("playbin", NULL);
    if (!pipeline) {
        copy_message(message, message_size, "GStreamer element 'playbin' is missing (install gstreamer1.0-plugins-base)");
        return NULL;
    }
    GError *error = NULL;
    // One element converts and scales in a single pass (videoconvertscale, GStreamer ≥ 1.22);
    // older GStreamer scales first, so a smaller frame is converted. The caps filter holds the
    // size the node wants (silk_gst_player_set_size), so frames arrive at the node's pixels.
    GstElementFactory *single = gst_element_factory_find("videoconvertscale");
    const char *convert = single ? "videoconvertscale name=silkconvert" : "videoscale name=silkconvert ! videoconvert";
    if (single) gst_object_unref(single);
    char description[512];
    snprintf(description, sizeof description,
             "%s ! capsfilter name=silkcaps caps=video/x-raw,format=BGRA,pixel-aspect-ratio=1/1 ! "
             "appsink name=silksink caps=video/x-raw,format=BGRA,pixel-aspect-ratio=1/1", convert);
    GstElement *bin = gst_parse_bin_from_description(description, TRUE, &error);
    if (!bin) {
        char text[512];
        snprintf(text, sizeof text, "GStreamer video elements are missing (install gstreamer1.0-plugins-base): %s",
                 error ? error->message : "unknown reason");
        copy_message(message, message_size, text);
        if (error) g_error_free(error);
        gst_object_unref(pipeline);
        return NULL;
    }
    if (error) g_error_free(error);
    SilkGstPlayer *p = g_new0(SilkGstPlayer, 1);
    g_mutex_init(&p->lock);
    g_mutex_init(&p->gate);
    g_cond_init(&p->idle);
    p->refs = 1;
    g_atomic_int_inc(&live_pipelines);
    g_object_weak_ref(G_OBJECT(pipeline), pipeline_finalized, NULL);
    p->pipeline = pipeline;
    p->context = context;
    p->on_frame = on_frame;
    p->on_event = on_event;
    p->on_size = on_size;
    p->asked_width = -1; p->asked_height = -1;
    p->sink = gst_bin_get_by_name(GST_BIN(bin), "silksink");
    p->convert = gst_bin_get_by_name(GST_BIN(bin), "silkconvert");
    p->caps = gst_bin_get_by_name(GST_BIN(bin), "silkcaps");
    GstPad *input = gst_element_get_static_pad(p->convert, "sink");
    g_atomic_int_inc(&p->refs);
    p->probe = gst_pad_add_probe(input, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_stream_caps, p, player_unref);
    gst_object_unref(input);
    g_object_set(p->sink, "max-buffers", 2, "drop", TRUE, "sync", TRUE, "enable-last-sample", FALSE, NULL);
    GstAppSinkCallbacks callbacks = { 0 };
    callbacks.new_sample = on_new_sample;
    callbacks.new_preroll = on_new_preroll;
    g_atomic_int_inc(&p->refs);
    gst_app_sink_set_callbacks(GST_APP_SINK(p->sink), &callbacks, p, player_unref);
    // Video only through Silk; audio to the default sink. Flags: video, audio, soft volume and
    // native video (playsink adds no converter or scaler of its own: Silk's bin scales once, to
    // the node's size). No subtitles overlaid, no deinterlacer or colour-balance element (each
    // holds or copies full-size frames).
    g_object_set(pipeline, "uri", uri, "video-sink", bin, "flags", 0x1 | 0x2 | 0x10 | 0x40, NULL);
    g_signal_connect(pipeline, "element-setup", G_CALLBACK(on_element_setup), NULL);
    p->bus = gst_element_get_bus(pipeline);
    g_atomic_int_inc(&p->refs);
    gst_bus_set_sync_handler(p->bus, on_bus_message, p, player_unref);
    return p;
}

int silk_gst_player_set_state(SilkGstPlayer *p, int state) {
    GstState s = state <= 0 ? GST_STATE_NULL : state == 1 ? GST_STATE_READY : state == 2 ? GST_STATE_PAUSED : GST_STATE_PLAYING;
    return gst_element_set_state(p->pipeline, s) == GST_STATE_CHANGE_FAILURE ? -1 : 0;
}

void silk_gst_player_set_size(SilkGstPlayer *p, int width, int height) {
    apply_size(p, width, height);
}

int silk_gst_player_seek(SilkGstPlayer *p, double seconds, int accurate) {
    if (!(seconds >= 0)) seconds = 0;
    GstSeekFlags flags = GST_SEEK_FLAG_FLUSH | (accurate ? GST_SEEK_FLAG_ACCURATE : GST_SEEK_FLAG_KEY_UNIT);
    return gst_element_seek_simple(p->pipeline, GST_FORMAT_TIME, flags, (gint64)(seconds * GST_SECOND)) ? 0 : -1;
}

void silk_gst_player_set_volume(SilkGstPlayer *p, double volume) {
    g_object_set(p->pipeline, "volume", volume, NULL);
}

void silk_gst_player_set_mute(SilkGstPlayer *p, int mute) {
    g_object_set(p->pipeline, "mute", mute ? TRUE : FALSE, NULL);
}

void silk_gst_player_get_volume(SilkGstPlayer *p, double *volume, int *mute) {
    gdouble v = 0;
    gboolean m = FALSE;
    g_object_get(p->pipeline, "volume", &v, "mute", &m, NULL);
    *volume = v;
    *mute = m ? 1 : 0;
}

double silk_gst_player_position(SilkGstPlayer *p) {
    gint64 t = 0;
    return gst_element_query_position(p->pipeline, GST_FORMAT_TIME, &t) && t >= 0 ? (double)t / GST_SECOND : -1;
}

double silk_gst_player_duration(SilkGstPlayer *p) {
    gint64 t = 0;
    return gst_element_query_duration(p->pipeline, GST_FORMAT_TIME, &t) && t >= 0 ? (double)t / GST_SECOND : -1;
}

// Teardown in three steps, each closing one way a GStreamer thread could reach freed memory:
// 1. The gate closes and free waits for the calls already inside it (a frame being copied, a bus
//    message being handed over), so no call reaches the context once free returns. Removing a
//    handler alone does not do that: gst_bus_post and appsink take their own reference to the
//    handler and call it after dropping their lock, so a call can still be running (or just
//    starting) after gst_bus_set_sync_handler(NULL) or gst_app_sink_set_callbacks returned.
// 2. The handlers are removed; each registration's destroy notify drops its reference to this
//    struct when GStreamer's last call of it ended, so a late caller still finds the gate.
// 3. The pipeline goes to NULL: its streaming threads are stopped and joined (a change to NULL
//    completes before gst_element_set_state returns; it never returns ASYNC), then unreffed.
void silk_gst_player_free(SilkGstPlayer *p) {
    if (!p) return;
    g_mutex_lock(&p->gate);
    p->closed = 1;
    if (callback_depth > 0) {
        g_warning("silk_gst_player_free called from one of the player's callbacks: not waiting for the calls in flight");
    } else {
        while (p->busy > 0) g_cond_wait(&p->idle, &p->gate);
    }
    g_mutex_unlock(&p->gate);

    gst_bus_set_sync_handler(p->bus, NULL, NULL, NULL);
    GstAppSinkCallbacks none = { 0 };
    gst_app_sink_set_callbacks(GST_APP_SINK(p->sink), &none, NULL, NULL);
    GstPad *input = gst_element_get_static_pad(p->convert, "sink");
    if (input) {
        if (p->probe) gst_pad_remove_probe(input, p->probe);
        gst_object_unref(input);
    }

    gst_element_set_state(p->pipeline, GST_STATE_NULL);
    gst_object_unref(p->bus);
    gst_object_unref(p->sink);
    gst_object_unref(p->convert);
    gst_object_unref(p->caps);
    gst_object_unref(p->pipeline);
    player_unref(p);
}

int silk_gst_live_pipelines(void) {
    return g_atomic_int_get(&live_pipelines);
}

void silk_gst_frame_release(void *handle) {
    FrameHandle *h = handle;
    if (!h) return;
    gst_buffer_unmap(h->buffer, &h->map);
    gst_sample_unref(h->sample);
    g_free(h);
}

char *silk_gst_filename_to_uri(const char *path) {
    return gst_filename_to_uri(path, NULL);
}

void silk_gst_free(void *p) { g_free(p); }

int silk_gst_set_feature_rank(const char *name, int rank) {
    if (silk_gst_initialize(NULL, 0) != 0) return -1;
    GstPluginFeature *f = gst_registry_lookup_feature(gst_registry_get(), name);
    if (!f) return -1;
    gst_plugin_feature_set_rank(f, (guint)rank);
    gst_object_unref(f);
    return 0;
}

int silk_gst_run_pipeline(const char *description, double timeout_seconds, char *message, size_t message_size) {
    if (silk_gst_initialize(message, message_size) != 0) return -1;
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(description, &error);
    if (!pipeline || error) {
        char text[512];
        snprintf(text, sizeof text, "%s", error ? error->message : "the pipeline cannot be built");
        copy_message(message, message_size, text);
        if (error) g_error_free(error);
        if (pipeline) gst_object_unref(pipeline);
        return -1;
    }
    int result = 0;
    if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        copy_message(message, message_size, "the pipeline cannot start");
        result = -1;
    } else {
        GstBus *bus = gst_element_get_bus(pipeline);
        GstClockTime timeout = timeout_seconds > 0 ? (GstClockTime)(timeout_seconds * GST_SECOND) : GST_CLOCK_TIME_NONE;
        GstMessage *msg = gst_bus_timed_pop_filtered(bus, timeout, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
        if (!msg) {
            copy_message(message, message_size, "the pipeline did not finish in time");
            result = -1;
        } else {
            if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
                GError *e = NULL;
                gst_message_parse_error(msg, &e, NULL);
                copy_message(message, message_size, e ? e->message : "pipeline error");
                if (e) g_error_free(e);
                result = -1;
            }
            gst_message_unref(msg);
        }
        gst_object_unref(bus);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
    return result;
}
