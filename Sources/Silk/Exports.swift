// `import Silk` is all an app needs: the modules a screen is built from come with it.
// Lower modules stay importable on their own (`import SilkLayout` for layout alone, say).
@_exported import SilkGeometry
@_exported import SilkInput
@_exported import SilkLayout
@_exported import SilkNodes
@_exported import SilkRaster
@_exported import SilkRender
@_exported import SilkRunLoop
@_exported import SilkAccessibility
