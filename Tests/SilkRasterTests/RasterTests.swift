import Testing
@testable import SilkRaster
