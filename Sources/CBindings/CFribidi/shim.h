#include <fribidi.h>

/* FRIBIDI_PAR_* are macros built from bit masks, which Swift cannot import: name them here. */
static const FriBidiParType silk_fribidi_par_ltr = FRIBIDI_PAR_LTR;
static const FriBidiParType silk_fribidi_par_rtl = FRIBIDI_PAR_RTL;
static const FriBidiParType silk_fribidi_par_on = FRIBIDI_PAR_ON;
