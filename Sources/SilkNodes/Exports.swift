// Nodes speak SilkInput's vocabulary in their public API (`InputEvent`, `Touch` phases, key
// modifiers, scroll physics), so importing SilkNodes brings it along.
@_exported import SilkInput
