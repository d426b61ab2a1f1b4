import SilkNodes

extension Window {
    /// Shows `controller`'s node as the window's root node (`setRootNode`) and delivers its
    /// appearance calls — `willAppear` and `didAppear` now, `willDisappear` and `didDisappear` when
    /// it is replaced or removed — to it and the children it shows. Use a `RootController` to
    /// present modals. Main thread.
    public func setRootController(_ controller: NodeController) {
        setRootNode(controller.node)
        shownRootController = controller
        controller.beginAppearanceTransition(true, animated: false)
        controller.endAppearanceTransition(animated: false)
    }

    /// The controller shown with `setRootController`, until another root replaces it. Main
    /// thread.
    public var rootController: NodeController? { shownRootController }
}
