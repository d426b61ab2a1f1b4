import Testing
@testable import SilkLayout
