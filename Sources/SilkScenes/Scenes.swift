import SilkGeometry
import SilkRaster
