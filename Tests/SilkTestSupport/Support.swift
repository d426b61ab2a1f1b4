import SilkRaster
