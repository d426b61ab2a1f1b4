import CPixman
import CFreeType
import CHarfBuzz
import CFontconfig
import CPNG
import CTurboJPEG
