// SPDX-License-Identifier: Apache-2.0
/// What the user asked for in the preview window. The window only reports these; the caller
/// decides what they do to the session.
public enum PreviewInput: Sendable, Equatable {
    /// `q` or `Esc`.
    case quitKey
    /// The window was closed (its close button, or the window manager).
    case closed
    /// Space: pause or resume scanning.
    case togglePause
    /// `u`: undo the last ISBN.
    case undo
    /// `r`: switch the region between the band and the whole frame.
    case toggleRegion
}
