import Testing
@testable import SilkRender
