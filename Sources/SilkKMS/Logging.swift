import Logging

/// This module's diagnostics (the card and mode chosen, a restored CRTC, a fallback), through
/// swift-log; messages are one line and do not name a program.
let logger = Logger(label: "silk.kms")
