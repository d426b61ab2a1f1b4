// Nodes speak SilkInput's vocabulary in their public API (`InputEvent`, `Touch` phases, key
// modifiers, scroll physics), so importing SilkNodes brings it along.
@_exported import SilkInput
// `DisplayNode.lock` and the node types' `lock`s are public `Lock`s (subclasses guard their own
// state with them), and `Locked` is the value box node code shares across threads: both come
// from SilkSystem, so `import SilkNodes` brings them along.
@_exported import SilkSystem
