import SilkInput
import SilkNodes
import SilkRender

// The window between a focused `EditableTextNode` and a presenter that speaks to the system's
// input method (`TextInputPresenting`: the Wayland presenter with text-input-v3). Once per
// main-loop iteration, before the layer commit, the focused field's state (surrounding text,
// content type, caret rectangle) is compared with what was last sent and sent when it changed;
// focus leaving text fields disables the input method, and focus moving from one field to
// another disables it first (so the input method drops what it was composing for the old one).
// Updates from the input method go to the focused field.

extension Window {
    /// The focused node when it is an editable text node that is editing.
    var focusedTextField: EditableTextNode? {
        guard let node = inputDispatcher?.focusedNode as? EditableTextNode, node.isEditing, node.isEditable else { return nil }
        return node
    }

    /// Sends the focused field's input-method state to the presenter when it changed (nil when no
    /// field edits). Main thread; called by the loop observer before each commit.
    func syncTextInput() {
        guard let presenter = presenter as? any TextInputPresenting else { return }
        let field = focusedTextField
        let id = field.map(ObjectIdentifier.init)
        let state = field?.textInputState
        if id != sentTextInputField, sentTextInput != nil, state != nil { presenter.updateTextInput(nil) }
        else if state == sentTextInput { return }
        sentTextInput = state
        sentTextInputField = state == nil ? nil : id
        presenter.updateTextInput(state)
    }

    /// Applies an input method's update (pre-edit, commit, delete-surrounding) to the focused
    /// text field; ignored when no field edits. Presenters call it through
    /// `PresenterEventHandler`; tests may call it directly. Main thread.
    public func presenterDidReceiveTextInput(_ update: TextInputUpdate) {
        focusedTextField?.applyInputMethod(update)
    }
}
