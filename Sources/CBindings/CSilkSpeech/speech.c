#include "CSilkSpeech.h"
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

// The few espeak-ng entry points used, declared from speak_lib.h's stable ABI (espeak-ng 1.49+):
// enums are ints, the event pointer is opaque here.
enum { AUDIO_OUTPUT_PLAYBACK = 0, AUDIO_OUTPUT_SYNCHRONOUS = 2 };
enum { POS_CHARACTER = 1, espeakCHARS_UTF8 = 1, espeakRATE = 1, INITIALIZE_DONT_EXIT = 0x8000 };
typedef int (*synth_callback)(short *, int, void *);

static struct {
    void *lib;
    int (*initialize)(int output, int buflength, const char *path, int options);
    void (*set_synth_callback)(synth_callback);
    int (*set_voice_by_name)(const char *);
    int (*set_parameter)(int parameter, int value, int relative);
    int (*synth)(const void *text, size_t size, unsigned int position, int position_type,
                 unsigned int end_position, unsigned int flags, unsigned int *uid, void *user_data);
    int (*synchronize)(void);
    int (*cancel)(void);
    silk_speech_sink sink;
} S;

static int forward(short *wav, int count, void *events) {
    (void)events;
    if (wav != NULL && count > 0 && S.sink != NULL) S.sink(wav, count);
    return 0;  // continue synthesis
}

int silk_speech_open(int to_sink, silk_speech_sink sink) {
    if (S.lib == NULL) {
        S.lib = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
        if (S.lib == NULL) return -1;
        S.initialize = (int (*)(int, int, const char *, int))dlsym(S.lib, "espeak_Initialize");
        S.set_synth_callback = (void (*)(synth_callback))dlsym(S.lib, "espeak_SetSynthCallback");
        S.set_voice_by_name = (int (*)(const char *))dlsym(S.lib, "espeak_SetVoiceByName");
        S.set_parameter = (int (*)(int, int, int))dlsym(S.lib, "espeak_SetParameter");
        S.synth = (int (*)(const void *, size_t, unsigned int, int, unsigned int, unsigned int, unsigned int *, void *))
            dlsym(S.lib, "espeak_Synth");
        S.synchronize = (int (*)(void))dlsym(S.lib, "espeak_Synchronize");
        S.cancel = (int (*)(void))dlsym(S.lib, "espeak_Cancel");
        if (!S.initialize || !S.set_synth_callback || !S.set_voice_by_name || !S.set_parameter || !S.synth ||
            !S.synchronize || !S.cancel) {
            dlclose(S.lib);
            memset(&S, 0, sizeof S);
            return -1;
        }
    }
    S.sink = sink;
    int rate = S.initialize(to_sink ? AUDIO_OUTPUT_SYNCHRONOUS : AUDIO_OUTPUT_PLAYBACK, 0, NULL, INITIALIZE_DONT_EXIT);
    if (rate <= 0) return -2;
    if (to_sink) S.set_synth_callback(forward);
    return rate;
}

int silk_speech_set_voice(const char *name) { return S.lib ? S.set_voice_by_name(name) : -1; }

int silk_speech_set_rate(int words_per_minute) { return S.lib ? S.set_parameter(espeakRATE, words_per_minute, 0) : -1; }

int silk_speech_speak(const char *utf8) {
    if (!S.lib) return -1;
    int r = S.synth(utf8, strlen(utf8) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
    if (r != 0) return r;
    return S.sink ? S.synchronize() : 0;
}

void silk_speech_cancel(void) {
    if (S.lib) S.cancel();
}
