// espeak-ng, loaded at run time (dlopen) for the talk-back mode: an app that never speaks does not
// need libespeak-ng installed, and building Silk needs no espeak-ng headers.
#ifndef CSILKSPEECH_H
#define CSILKSPEECH_H

/// Receives synthesized 16-bit mono samples (synchronous mode).
typedef void (*silk_speech_sink)(const short *samples, int count);

/// Loads libespeak-ng.so.1 and initializes it: `to_sink` 1 synthesizes into `sink` (a WAV file),
/// 0 plays through the default audio device. Returns the sample rate, -1 when the library is not
/// installed, -2 when it failed to initialize (no voice data). Call once.
int silk_speech_open(int to_sink, silk_speech_sink sink);
/// Chooses a voice by name ("en", "de", "en-us"…). Returns 0 on success.
int silk_speech_set_voice(const char *name);
/// Words per minute (espeak-ng clamps to 80…450). Returns 0 on success.
int silk_speech_set_rate(int words_per_minute);
/// Speaks UTF-8 text: returns when synthesized (sink mode) or queued for playback. 0 on success.
int silk_speech_speak(const char *utf8);
/// Stops what is being spoken (playback mode).
void silk_speech_cancel(void);

#endif
