import Testing
@testable import SilkRunLoop
