import Logging

/// This module's diagnostics (a failed display, a refused device, a fallback chosen), through
/// swift-log: an app chooses where they go with `LoggingSystem.bootstrap`; by default they go to
/// standard error. Messages are one line and do not name a program.
let logger = Logger(label: "silk.wayland")
